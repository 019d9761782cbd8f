// The agentchart live view: reads trace lines from /events (server-sent
// events) and draws the transcript and every machine with its current state.
// Everything comes from this page's own server; text is set with textContent.

const transcript = document.getElementById('transcript');
const machinesBox = document.getElementById('machines');
const speaker = document.getElementById('speaker');
const connection = document.getElementById('connection');

/** actorId → actor entry */
const actors = new Map();
/** machine key → graph */
const graphs = new Map();
/** actorId → { panel, diagram, stateLabel, active: string[] } */
const panels = new Map();
/** `${agent}:${step}` → the bubble being streamed */
const streaming = new Map();
const runsOpen = new Set();

function add(kind, text, who) {
  const item = document.createElement('li');
  item.className = kind;
  if (who) {
    const label = document.createElement('span');
    label.className = 'who';
    label.textContent = who;
    item.append(label);
  }
  item.append(document.createTextNode(text));
  transcript.append(item);
  item.scrollIntoView({ block: 'nearest' });
  return item;
}

function setSpeaker(name) {
  if (name) speaker.textContent = name;
}

function short(value, max = 220) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function ownerLabel(actorId) {
  for (let actor = actors.get(actorId); actor; actor = actors.get(actor.parentId)) {
    if (actor.label) return actor.label;
  }
  return undefined;
}

function stateText(value) {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return String(value);
  return Object.entries(value)
    .map(([key, child]) => (child && typeof child === 'object' && Object.keys(child).length === 0 ? key : `${key}.${stateText(child)}`))
    .join(', ');
}

function setLive() {
  connection.dataset.state = 'live';
  connection.textContent = 'live';
}

function onRunEvent(event) {
  const agent = event.agent ?? event.speaker ?? 'chat';
  switch (event.type) {
    case 'chat.started':
      runsOpen.add(event.chatId);
      setLive();
      add('run-start', `▶ chat starts${event.resumed ? ' (resumed)' : ''}`);
      for (const message of event.messages ?? []) {
        if (message && typeof message === 'object' && message.role === 'user') add('msg user', message.content, message.name ?? 'user');
      }
      break;
    case 'handoff':
      add('speaker-change', `↪ ${event.from} hands off to ${event.to} (${event.via})`);
      break;
    case 'human.waiting':
      add('speaker-change', `… waiting for ${event.speaker}`);
      setSpeaker(event.speaker);
      break;
    case 'human.said':
      add('msg user', event.text, event.speaker);
      break;
    case 'chat.finished':
      runsOpen.delete(event.chatId);
      add('run-end', `■ chat finished: ${event.reason} after ${event.rounds} round(s)${event.error ? ` (${event.error.message})` : ''}`);
      if (runsOpen.size === 0) {
        connection.dataset.state = 'finished';
        connection.textContent = 'finished';
      }
      break;
    case 'run.started':
      runsOpen.add(event.runId);
      setLive();
      add('run-start', `▶ ${agent} starts`);
      // In a chat, the task is shown once, at chat.started.
      for (const message of event.speaker === undefined ? (event.input ?? []) : []) {
        if (message && typeof message === 'object' && message.role === 'user') add('msg user', message.content, message.name ?? 'user');
      }
      setSpeaker(agent);
      break;
    case 'model.request':
      setSpeaker(agent);
      break;
    case 'text.delta': {
      const key = `${event.runId}:${event.step}`;
      let bubble = streaming.get(key);
      if (!bubble) {
        bubble = add('msg assistant streaming', '', agent);
        streaming.set(key, bubble);
      }
      bubble.lastChild.textContent += event.text;
      setSpeaker(agent);
      break;
    }
    case 'message': {
      const message = event.message;
      if (message?.role !== 'assistant') break;
      const key = [...streaming.keys()].find((k) => k.startsWith(`${event.runId}:`));
      const bubble = key ? streaming.get(key) : undefined;
      if (key) streaming.delete(key);
      if (bubble) {
        bubble.classList.remove('streaming');
        bubble.lastChild.textContent = message.content;
        if (!message.content) bubble.remove();
      } else if (message.content) {
        add('msg assistant', message.content, message.name ?? agent);
      }
      break;
    }
    case 'tool.call':
      add('tool-call', `⚙ ${event.call.name}(${short(event.call.arguments ?? event.call.malformedArguments ?? {})})`, agent);
      break;
    case 'tool.result':
      add(`tool-result ${event.isError ? 'error' : 'ok'}`, `${event.isError ? '✗' : '✓'} ${event.toolName} → ${short(event.content)}`);
      break;
    case 'tool.refused':
      add(
        'refusal',
        `⊘ ${event.call.name} refused (${event.rule}): ${event.reason}\nallowed now: ${(event.allowedTools ?? []).join(', ') || 'none'}`,
        agent,
      );
      break;
    case 'approval.requested':
      add('approval', `? ${agent} asks approval for ${event.call?.name ?? 'a call'}`, agent);
      break;
    case 'approval.decided':
      add('approval', `${event.approved ? '✓ approved' : '✗ rejected'} ${event.call?.name ?? ''}`.trim(), agent);
      break;
    case 'speaker.selected':
      add('speaker-change', `» next speaker: ${event.speaker} (round ${event.round}, by ${event.by})`);
      setSpeaker(event.speaker);
      break;
    case 'speaker.fallback':
      // Says why; the speaker.selected that follows (by: fallback) names the speaker.
      add('speaker-change fallback', `⚠ speaker selection fell back (${event.reason}${event.error ? `: ${event.error.message}` : ''})`);
      break;
    case 'speaker.rejected':
      add('speaker-change', `✗ selector answered ${JSON.stringify(short(event.answer ?? '', 80))}: not one of ${(event.eligible ?? []).join(', ')}`);
      break;
    case 'state.changed':
      if (event.change?.key) {
        add(
          'state-change',
          event.change.deleted ? `◇ ${event.change.key} deleted` : `◇ ${event.change.key} = ${short(event.change.value ?? null)}`,
          'shared state',
        );
      }
      break;
    case 'run.finished':
      runsOpen.delete(event.runId);
      add('run-end', `■ ${agent} finished: ${event.reason}${event.error ? ` — ${event.error.message}` : ''}`);
      if (runsOpen.size === 0) {
        connection.dataset.state = 'finished';
        connection.textContent = 'finished';
      }
      break;
    default:
      break;
  }
}

const FOLDED_MACHINES = new Set(['agent', 'groupChat']);

/** One box per agent (or chat), holding its machines. */
function groupFor(owner) {
  const name = owner ?? 'system';
  for (const group of machinesBox.children) if (group.dataset.owner === name) return group;
  const group = document.createElement('div');
  group.className = 'owner';
  group.dataset.owner = name;
  const title = document.createElement('h3');
  title.textContent = name;
  group.append(title);
  machinesBox.append(group);
  return group;
}

async function addMachinePanel(actor) {
  const panel = document.createElement('section');
  panel.className = 'machine';
  panel.dataset.actor = actor.actorId;
  panel.dataset.machine = actor.machine;
  const title = document.createElement('h4');
  title.textContent = actor.name;
  const stateLabel = document.createElement('div');
  stateLabel.className = 'state';
  const diagram = document.createElement('div');
  diagram.className = 'diagram';
  // The big run machines (the agent loop, the chat manager) fold away; rule and speaker machines stay open.
  const fold = document.createElement('details');
  fold.open = !FOLDED_MACHINES.has(actor.name);
  const summary = document.createElement('summary');
  summary.textContent = 'diagram';
  fold.append(summary, diagram);
  panel.append(title, stateLabel, fold);
  groupFor(ownerLabel(actor.actorId)).append(panel);
  const entry = { panel, diagram, stateLabel, active: [], value: undefined };
  panels.set(actor.actorId, entry);
  const response = await fetch(`machines/${encodeURIComponent(actor.machine)}.svg`);
  diagram.innerHTML = await response.text();
  highlight(entry);
}

function highlight(entry) {
  for (const node of entry.diagram.querySelectorAll('g.current')) node.classList.remove('current');
  // Highlight the innermost states only (the root would light up "any state").
  const leaves = entry.active.filter((id) => !entry.active.some((other) => other.startsWith(`${id}.`)));
  for (const id of leaves) {
    const node = entry.diagram.querySelector(`g[id="${CSS.escape(`state:${id}`)}"]`);
    if (node) node.classList.add('current');
  }
  entry.stateLabel.replaceChildren();
  if (entry.value !== undefined) {
    entry.stateLabel.append('now: ');
    const strong = document.createElement('strong');
    strong.textContent = stateText(entry.value);
    entry.stateLabel.append(strong);
  }
}

let lastSeq = -1;

function onLine(line) {
  // A reconnecting stream starts again from the first line: skip what is drawn already.
  if (typeof line.seq === 'number') {
    if (line.seq <= lastSeq) return;
    lastSeq = line.seq;
  }
  switch (line.kind) {
    case 'header':
      if (line.title) document.getElementById('title').textContent = line.title;
      break;
    case 'machine':
      graphs.set(line.machine, line.graph);
      break;
    case 'actor': {
      actors.set(line.actorId, line);
      // Machines without states of their own (shared state) have nothing to draw.
      const graph = line.machine ? graphs.get(line.machine) : undefined;
      if (graph && graph.nodes.length > 1) void addMachinePanel(line);
      break;
    }
    case 'snapshot': {
      const entry = panels.get(line.actorId);
      if (!entry) break;
      if (line.activeStates) entry.active = line.activeStates;
      if (line.value !== undefined) entry.value = line.value;
      entry.panel.classList.toggle('stopped', line.status !== 'active');
      highlight(entry);
      break;
    }
    case 'run':
      onRunEvent(line.event);
      break;
    default:
      break;
  }
}

const source = new EventSource('events');
source.onmessage = (message) => onLine(JSON.parse(message.data));
source.onopen = () => {
  if (connection.dataset.state === 'connecting' || connection.dataset.state === 'lost') {
    connection.dataset.state = 'live';
    connection.textContent = 'live';
  }
};
source.onerror = () => {
  if (connection.dataset.state !== 'finished') {
    connection.dataset.state = 'lost';
    connection.textContent = 'reconnecting…';
  }
};
