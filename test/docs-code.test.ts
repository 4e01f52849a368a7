// The docs say what the code does: each claim that can be read from the code is checked against it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ATTR, SPAN_NAMES } from '../src/audit/tracing.js';
import { createExecutor } from '../src/index.js';
import { API_ERRORS } from '../src/server/errors.js';
import { hooksOn, input, printing } from './helpers/fixture.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).flatMap((f) => (f.endsWith('.md') ? [`docs/${f}`] : [])),
];

/** Files under `dir` (relative to the root), any depth. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** Markdown without its fenced code blocks (their `#` lines are no headings, their text no claims). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor of a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

describe('docs/development.md', () => {
  it('lists the layers in the order the layer check enforces', () => {
    const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
      forbidden: { name: string }[];
    };
    const checked = config.forbidden.flatMap((r) => (r.name.startsWith('layer:') ? [r.name.slice(6)] : []));
    const block = /bottom first[\s\S]*?```\n([\s\S]*?)```/.exec(read('docs/development.md'))?.[1] ?? '';
    const documented = block
      .split('\n')
      .flatMap((line) => line.replace(/\s*\(.*$/, '').split(/,\s*/))
      .map((s) => s.trim())
      .filter((s) => s !== '');
    expect(checked.length).toBeGreaterThan(10);
    expect(documented).toEqual(checked);
  });
});

describe('docs/library.md', () => {
  it("lists exactly the values each of the package's entries exports", async () => {
    const pkg = JSON.parse(read('package.json')) as { exports: Record<string, { import?: string } | string> };
    const section =
      /\*\*The public API\*\*[\s\S]*?\n\n([\s\S]*?)\n\n/.exec(read('docs/library.md'))?.[1] ?? '';
    const entries = section.split(/\n- /).map((e) => e.replace(/^- /, '').replace(/\s+/g, ' '));
    expect(entries.map((e) => /^`([^`]+)`/.exec(e)?.[1])).toEqual([
      'hookwarden',
      'hookwarden/packs',
      'hookwarden/audit',
      'hookwarden/bench',
    ]);
    for (const entry of entries) {
      const [, name, file] = /^`([^`]+)` \(`([^`]+)`/.exec(entry)!;
      const subpath = name === 'hookwarden' ? '.' : `./${name!.slice('hookwarden/'.length)}`;
      const target = pkg.exports[subpath] as { import: string };
      expect(target.import, name).toBe(`./dist/${file!.replace(/\.ts$/, '.js')}`);
      const documented = [...entry.slice(entry.indexOf(':')).matchAll(/`([A-Za-z_][\w]*)`/g)].map(
        (m) => m[1],
      );
      const actual = Object.keys(await import(join(ROOT, file!)));
      expect([...documented].sort(), name).toEqual(actual.sort());
    }
  });

  it('names every code dispatch() rejects with, and each is real', async () => {
    const sentence = /`dispatch` rejects only for ([\s\S]*?)\.\n/.exec(read('docs/library.md'))?.[1] ?? '';
    const documented = [...sentence.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    const config = hooksOn('BeforeTool', [printing({})]);
    const hw = await createExecutor({ config, onWarning: () => {} });
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        (err: { code?: string }) => err.code,
      );
    const seen = [
      await code(hw.dispatch('NoSuchEvent', input())),
      await code(hw.dispatch('BeforeTool', input({ toolName: 7 }))),
      await code(hw.dispatch('BeforeTool', input(), { tenat: 'a' } as never)),
    ];
    await hw.close();
    // Over the rate (1 a second, no burst): of dispatches in a row, one is refused (the next one,
    // unless the machine took a second between them).
    const limitedHw = await createExecutor({ config, limits: { tenantRatePerSec: 1 }, onWarning: () => {} });
    let limited: string | undefined;
    for (let i = 0; i < 10 && limited === undefined; i++) {
      const c = await code(limitedHw.dispatch('BeforeTool', input({ toolName: 'Bash' })));
      if (c !== 'resolved') limited = c;
    }
    seen.push(limited);
    await limitedHw.close();
    seen.push(await code(hw.dispatch('BeforeTool', input())));
    expect(seen).toEqual(['unknown_event', 'invalid_input', 'invalid_options', 'rate_limited', 'closed']);
    expect([...documented].sort()).toEqual([...seen].sort());
  });
});

describe('docs/serve.md and docs/library.md: traces', () => {
  it('name every span and every span attribute the code can set', () => {
    const serve = read('docs/serve.md');
    const library = read('docs/library.md');
    for (const name of Object.values(SPAN_NAMES)) {
      expect(serve).toContain(`\`${name} <`);
      expect(library).toContain(`\`${name} <`);
    }
    for (const attr of Object.values(ATTR)) {
      expect(serve).toContain(`\`${attr}\``);
      // library.md shortens the hook's attributes after the first (`.type`, `.scope`…).
      expect(library).toMatch(new RegExp(`\`(${attr.replace(/\./g, '\\.')}|\\.${attr.split('.').at(-1)})\``));
    }
  });
});

describe('docs/serve.md', () => {
  it('lists every code of the error envelope with its status, in the one table', () => {
    const doc = read('docs/serve.md');
    const table = /Every code of the error envelope[\s\S]*?\n\n((?:\|.*\n)+)/.exec(doc)?.[1] ?? '';
    const rows = [...table.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2], Number(m[1])]);
    expect(rows).toEqual(Object.entries(API_ERRORS));
  });
});

describe('README.md and docs/', () => {
  it('point at files and headings that exist', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      for (const m of prose(read(doc)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1]!;
        if (/^[a-z]+:/.test(link)) continue;
        const [path, anchor] = link.split('#');
        const target = path === '' ? doc : join(doc, '..', path!);
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${doc}: ${link} (no such file)`);
          continue;
        }
        if (anchor === undefined || statSync(join(ROOT, target)).isDirectory()) continue;
        const headings = [...prose(read(target)).matchAll(/^#+ (.*)$/gm)].map((h) => slug(h[1]!));
        if (!headings.includes(anchor)) broken.push(`${doc}: ${link} (no such heading)`);
      }
      // The README's sections moved to docs/: a reference by name must name a heading it still has.
      for (const m of read(doc).matchAll(/README "([^"]+)"/g)) broken.push(`${doc}: README "${m[1]}"`);
    }
    expect(broken).toEqual([]);
  });

  it('state line counts that hold (±15%), each as "`path`, ~N lines"', () => {
    const claims: string[] = [];
    const wrong: string[] = [];
    for (const doc of DOCS) {
      const text = prose(read(doc));
      for (const m of text.matchAll(/`([\w./*-]+)`, ~([\d,]+) lines/g)) {
        const [pattern, n] = [m[1]!, Number(m[2]!.replace(',', ''))];
        const dir = pattern.slice(0, pattern.lastIndexOf('/'));
        const re = new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
        const files = filesUnder(dir).filter((f) => re.test(f));
        const lines = files.reduce((sum, f) => sum + read(f).split('\n').length - 1, 0);
        claims.push(pattern);
        if (files.length === 0 || Math.abs(lines - n) > n * 0.15)
          wrong.push(`${doc}: ${pattern} ~${n} lines, has ${lines}`);
      }
      // Every other claim of a size in lines is one of those, or it is not checked.
      for (const m of text.matchAll(/.{0,30}(?:\b\d[\d,]*-line\b|~?\b\d[\d,]* lines of\b).{0,30}/g))
        wrong.push(`${doc}: "${m[0]}" (write it as "\`path\`, ~N lines")`);
    }
    expect(claims.length).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  });
});

describe('comments and docs', () => {
  it('point at docs/, not at a design document that is not in the repository', () => {
    const dirs = ['src', 'sandbox', 'bench', 'scripts', 'test', 'docs'];
    const hits = [...dirs.flatMap(filesUnder), 'README.md']
      .filter((f) => /\.(ts|c|h|md|mjs|sh)$/.test(f) && !f.startsWith('test/fixtures/'))
      .filter((f) => /DESIGN(\.md| §)/.test(read(f)));
    expect(hits).toEqual([]);
  });

  it('name source files that exist', () => {
    const names = new Set(
      ['src', 'sandbox', 'bench', 'scripts', 'test']
        .flatMap(filesUnder)
        .map((f) => f.slice(f.lastIndexOf('/') + 1)),
    );
    const missing: string[] = [];
    for (const f of ['src', 'sandbox'].flatMap(filesUnder).filter((x) => x.endsWith('.ts'))) {
      for (const m of read(f).matchAll(/\/\/.*|\/\*[\s\S]*?\*\//g))
        for (const n of m[0].matchAll(/(?<![\w./-])(?:[\w-]+\/)*([\w-]+\.ts)\b/g))
          if (!names.has(n[1]!)) missing.push(`${f}: ${n[0]}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('the four claims issue 41 found stale', () => {
  it('docs/development.md states the size rule with the numbers the checker enforces', async () => {
    const { MAX_FILE_LINES, MAX_FUNCTION_LINES } = await import('../scripts/check-size.mjs');
    const text = read('docs/development.md').replace(/\s+/g, ' ');
    expect(text).toContain('`npm run size` (`scripts/check-size.mjs`, run by `.ci/run`)');
    expect(text).toMatch(new RegExp(`over ${MAX_FILE_LINES} lines .* over ${MAX_FUNCTION_LINES} lines`));
    expect(text).not.toMatch(/files stay under \d+ lines/i);
    expect(read('.ci/run')).toMatch(/^step "size" npm run size$/m);
    expect(JSON.parse(read('package.json')).scripts.size).toBe('node scripts/check-size.mjs');
  });

  it('docs/semantics.md names the fold steps src/contract/fold.ts exports', async () => {
    const fold = (await import('../src/contract/fold.js')) as Record<string, unknown>;
    const section = /The fold lives in `src\/contract\/fold\.ts`([\s\S]*?)\n\n/.exec(
      read('docs/semantics.md'),
    )?.[1];
    const named = [...(section ?? '').matchAll(/`(\w+Fold\w*|fold\w+)`/g)].map((m) => m[1]!);
    expect(named).toEqual(expect.arrayContaining(['startFold', 'foldStep', 'finishFold', 'foldAnswers']));
    for (const name of named) expect(typeof fold[name], name).toBe('function');
    // The dispatch drives the steps; foldAnswers is the three in one.
    const dispatch = filesUnder('src/dispatch').map(read).join('\n');
    expect(dispatch).toMatch(/\bfoldStep\b/);
  });

  it('docs/security.md: src/contract/scopes.ts is the only home of scope order', () => {
    expect(read('docs/security.md')).toContain(
      '`src/contract/scopes.ts` holds both, and is the only home of scope order',
    );
    const scope = String.raw`['"]?(trusted|policy|project|user)['"]?`;
    // A rank table ({ trusted: 0, policy: 1, … }) or a list of the four scopes in some order.
    const table = new RegExp(String.raw`${scope}\s*:\s*-?\d+\s*,\s*${scope}\s*:\s*-?\d+`);
    const list = new RegExp(String.raw`\[\s*${scope}\s*,\s*${scope}\s*,\s*${scope}\s*,\s*${scope}\s*,?\s*\]`);
    const offenders = [...filesUnder('src'), ...filesUnder('sandbox')]
      .filter((f) => f.endsWith('.ts') && f !== 'src/contract/scopes.ts')
      .filter((f) => table.test(read(f)) || list.test(read(f)));
    expect(offenders).toEqual([]);
  });

  it('README.md: Node forks once per executor to start the spawn server, never once per hook', () => {
    const readme = read('README.md').replace(/\s+/g, ' ');
    expect(readme).not.toMatch(/never forks/);
    expect(readme).toContain(
      'Node forks once per executor (to start the server, lazily on its first command hook',
    );
    // One spawn() in the server's module, in the process class; the launcher keeps one server at a
    // time and starts another only when it is gone.
    const server = read('sandbox/command/spawn-server.ts');
    expect(server.match(/\bspawn\(/g)).toHaveLength(1);
    expect(server).toMatch(/if \(this\.#server === undefined\) \{\s*const server = new ServerProcess\(/);
    expect(server).toMatch(/if \(this\.#server === server\) this\.#server = undefined;/);
  });
});
