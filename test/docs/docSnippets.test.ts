import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Every ```ts block of README.md and docs/*.md type-checks as a module of its
 * own, under the workspace's compiler options plus unused imports. A block
 * may name what the prose defines: an HTML comment right above it,
 * `<!-- ts-context: declare const model: import('@agentchart/core').ChatModel; -->`,
 * is checked with it (and not shown by a Markdown viewer). A block that is
 * deliberately not a program (elided with `...`) is written ```ts fragment:
 * it is listed here as skipped.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'node_modules/.cache/doc-snippets');
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

interface Snippet {
  doc: string;
  line: number;
  code: string;
  /** The block's `ts-context` comment: declarations checked with it, line 0. */
  context: string;
  fragment: boolean;
  file: string;
}

function snippetsOf(doc: string): Snippet[] {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const snippets: Snippet[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(ts|typescript)(\s+fragment)?\s*$/.exec(lines[index]!);
    if (!open) continue;
    const end = lines.indexOf('```', index + 1);
    if (end === -1) throw new Error(`${doc}:${index + 1}: a code block that never closes`);
    const file = join(out, `${doc.replace(/[/.]/g, '_')}_${index + 1}.ts`);
    const context = /^<!-- ts-context: (.*) -->$/.exec(lines[index - 1] ?? '')?.[1] ?? '';
    snippets.push({ doc, line: index + 1, code: lines.slice(index + 1, end).join('\n'), context, fragment: open[2] !== undefined, file });
    index = end;
  }
  return snippets;
}

const snippets = docs.flatMap(snippetsOf);
const UNUSED = new Set([6133, 6192, 6196, 6198]);
let diagnostics = new Map<string, string[]>();

function isInsideImport(diagnostic: ts.Diagnostic): boolean {
  const source = diagnostic.file;
  if (!source || diagnostic.start === undefined) return false;
  return source.statements.some(
    (statement) => ts.isImportDeclaration(statement) && statement.pos <= diagnostic.start! && diagnostic.start! < statement.end,
  );
}

beforeAll(() => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const checked = snippets.filter((snippet) => !snippet.fragment);
  // `export {}` makes each block a module of its own (top-level await, no shared names).
  // The context is the file's first line, so a block's line n is the file's line n + 1.
  for (const snippet of checked) writeFileSync(snippet.file, `${snippet.context}\n${snippet.code}\nexport {};\n`);
  const base = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram(
    checked.map((snippet) => snippet.file),
    { ...base.options, noEmit: true, noUnusedLocals: true },
  );
  diagnostics = new Map(
    checked.map((snippet) => {
      const source = program.getSourceFile(snippet.file)!;
      const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
        .filter((diagnostic) => !UNUSED.has(diagnostic.code) || isInsideImport(diagnostic))
        .map((diagnostic) => {
          const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
          return `${snippet.doc}:${snippet.line + line}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
        });
      return [snippet.file, found];
    }),
  );
}, 120_000);

describe('the TypeScript blocks of README.md and docs/*.md', () => {
  it('finds the blocks', () => {
    expect(snippets.filter((snippet) => !snippet.fragment).length).toBeGreaterThan(10);
  });

  for (const snippet of snippets) {
    const name = `${snippet.doc}:${snippet.line}`;
    if (snippet.fragment) {
      it.skip(`${name} (marked fragment)`, () => {});
      continue;
    }
    it(`${name} type-checks`, () => {
      expect(diagnostics.get(snippet.file)).toEqual([]);
    });
  }
});
