/**
 * Makes relative paths resolve from where the user typed the command. pnpm
 * runs a package script (`npx pnpm@12.4.2 agentchart …`) from the workspace
 * root and says where it was called in `INIT_CWD`; a script started by
 * another script (a test under `pnpm test`) keeps its own working directory.
 *
 * @example
 * useCallerCwd(['agentchart']); // then `resolve('rules.json')` is the caller's file
 */
export function useCallerCwd(scripts: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  const script = env.npm_lifecycle_event;
  if (script !== undefined && scripts.includes(script) && env.INIT_CWD) process.chdir(env.INIT_CWD);
}
