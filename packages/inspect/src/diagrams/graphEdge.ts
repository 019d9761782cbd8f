/** One transition. `event` is the raw event type ('' for eventless). */
export interface GraphEdge {
  source: string;
  target: string;
  event: string;
  /** What a person reads on the arrow: `start`, `callModel done`, `always`. */
  label: string;
  guard?: string;
  /** A transition without a target: it runs actions and stays in `source`. */
  internal?: boolean;
}
