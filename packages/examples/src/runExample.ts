/**
 * Runs one example: `npx pnpm@12.4.2 example <name>` runs
 * src/examples/<name>.ts (or the demo). Without a name, or with `--help`,
 * lists the examples; an unknown name or flag prints the usage and exits 1,
 * and so does an example whose model failed (a server that cannot be reached).
 */
import { useCallerCwd } from './cli/callerCwd.js';
import { exampleNames, resolveModule } from './cli/exampleModules.js';
import { describeModelFailures, watchModelFailures } from './cli/modelFailures.js';

const usage = () => `Usage: npx pnpm@12.4.2 example <name>\nExamples: ${exampleNames().join(', ')}`;

useCallerCwd(['example']);
const [name, ...extra] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h') {
  console.log(usage());
} else if (name.startsWith('-') || extra.length > 0) {
  console.error(`example: unknown argument "${name.startsWith('-') ? name : extra[0]}".\n\n${usage()}`);
  process.exitCode = 1;
} else {
  const moduleUrl = /^[\w-]+$/.test(name) ? resolveModule(name) : undefined;
  if (moduleUrl === undefined) {
    console.error(`No example named "${name}".\n\n${usage()}`);
    process.exitCode = 1;
  } else {
    const failures = watchModelFailures();
    await import(moduleUrl);
    failures.stop();
    if (failures.list().length > 0) {
      console.error(`\n${describeModelFailures(`example ${name}`, failures.list())}`);
      process.exitCode = 1;
    }
  }
}
