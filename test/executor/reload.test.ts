import { renameSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WatchTarget } from '../../src/config/watch-target.js';
import { internalsOf } from '../../src/executor/internals.js';
import { createExecutor, type DispatchResult, type ReloadResult } from '../../src/index.js';
import { lockPack } from '../../src/packs/lock-pack.js';
import { hooksOn, input, printing, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';
import { script, writePack } from '../helpers/pack.js';

/** Replaces a file the way editors do: write a temporary file, rename it over the original. */
function replaceFile(path: string, content: unknown): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, typeof content === 'string' ? content : JSON.stringify(content));
  renameSync(tmp, path);
}

/**
 * The changes reported in what `targets` name while `action` runs, up to a marker written after it
 * to a directory of its own: one loop watches both, so what happened before the marker is reported
 * before it.
 */
async function watchedQuiet(targets: readonly WatchTarget[], action: () => Promise<void>): Promise<string[]> {
  const changes: string[] = [];
  const markerDir = tempDir('hw-marker-');
  let marked!: () => void;
  const markerSeen = new Promise<void>((r) => {
    marked = r;
  });
  const watchers = [...new Set(targets.map((t) => t.dir))].map((dir) =>
    watch(dir, (_event, name) => {
      const wanted = targets.filter((t) => t.dir === dir);
      if (wanted.some((t) => t.name === undefined || t.name === String(name)))
        changes.push(join(dir, String(name)));
    }),
  );
  watchers.push(watch(markerDir, () => marked()));
  try {
    await action();
    writeFileSync(join(markerDir, 'marker'), 'x');
    await markerSeen;
  } finally {
    for (const w of watchers) w.close();
  }
  return changes;
}

/** Polls `check` until it returns true (the 300 ms debounce plus a load), failing after `ms`. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met within the deadline');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const generation = (tag: string) =>
  hooksOn('SessionStart', [
    printing({ additionalContext: `${tag}1` }, { name: `${tag}1` }),
    printing({ additionalContext: `${tag}2` }, { name: `${tag}2` }),
  ]);
const ids = (r: DispatchResult) => r.hooks.map((h) => h.id).join(',');

describe('reload()', () => {
  it('swaps in the edited configuration, and reloading the same content twice duplicates nothing', async () => {
    const cfg = writeConfig(tempDir(), 'hooks.json', generation('a'));
    await withExecutor({ config: cfg }, async (hw) => {
      expect(await hw.reload()).toMatchObject({ ok: true, generation: 2 });
      expect(await hw.reload()).toMatchObject({ ok: true, generation: 3 });
      const same = await hw.dispatch('SessionStart', input());
      expect([ids(same), same.additionalContext]).toEqual(['a1,a2', 'a1\na2']);
      replaceFile(cfg, generation('b'));
      expect(await hw.reload()).toMatchObject({ ok: true, generation: 4 });
      expect(ids(await hw.dispatch('SessionStart', input()))).toBe('b1,b2');
    });
  });

  it('keeps the last good generation when an edit breaks the file, and says why', async () => {
    const cfg = writeConfig(tempDir(), 'hooks.json', generation('a'));
    await withExecutor({ config: cfg }, async (hw, warnings) => {
      replaceFile(cfg, '{"hooks": {"SessionStart": [');
      const r = await hw.reload();
      expect(r.ok).toBe(false);
      expect((r as Extract<ReloadResult, { ok: false }>).reason).toMatch(
        new RegExp(
          `^reload refused, generation 1 stays in force: ${cfg}: invalid JSON at line 1, column \\d+`,
        ),
      );
      expect(warnings.join('\n')).toContain('reload refused: invalid JSON at line 1');
      expect(ids(await hw.dispatch('SessionStart', input()))).toBe('a1,a2');
      // A valid file with a new invalid entry is refused as well: entries are never silently dropped.
      replaceFile(cfg, { hooks: { SessionStart: [{ hooks: [{ command: 'x', timeoutMs: -1 }] }] } });
      expect((await hw.reload()).ok).toBe(false);
      expect(ids(await hw.dispatch('SessionStart', input()))).toBe('a1,a2');
      replaceFile(cfg, generation('b'));
      expect(await hw.reload()).toMatchObject({ ok: true, generation: 2 });
      expect(ids(await hw.dispatch('SessionStart', input()))).toBe('b1,b2');
    });
  });

  it('never drops policy hooks: a broken policy file keeps the previous generation', async () => {
    const dir = tempDir();
    const policy = writeConfig(
      dir,
      'policy.json',
      hooksOn('BeforeTool', [printing({ decision: 'deny', reason: 'no' }, { name: 'no-rm' })]),
    );
    const cfg = writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [printing({ decision: 'allow' })]));
    await withExecutor({ config: cfg, policy }, async (hw) => {
      replaceFile(policy, 'not json');
      replaceFile(cfg, generation('b'));
      const r = await hw.reload();
      expect(r.ok).toBe(false);
      const d = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect([d.decision, d.decidedBy]).toEqual(['deny', 'no-rm']);
      expect(ids(await hw.dispatch('SessionStart', input()))).toBe(''); // the user edit waits for a good policy
    });
  });

  it('refuses a policy pack that no longer verifies; the kept generation does not run the changed file', async () => {
    const base = tempDir();
    const pack = writePack(
      {
        hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: './check.sh' }] }] },
        files: { 'check.sh': script({ decision: 'allow', reason: 'reviewed' }) },
      },
      join(base, 'packs', 'guard'),
    );
    const { digest } = await lockPack(pack);
    const cfg = writeConfig(base, 'policy.json', { packs: [{ path: 'packs/guard', digest }] });
    await withExecutor({ policy: cfg }, async (hw) => {
      expect((await hw.dispatch('BeforeTool', input())).decision).toBe('allow');
      replaceFile(join(pack, 'check.sh'), script({ decision: 'allow', reason: 'tampered' }));
      const r = await hw.reload();
      expect(r.ok).toBe(false);
      expect((r as Extract<ReloadResult, { ok: false }>).reason).toContain(
        'changed since the lock: check.sh',
      );
      const d = await hw.dispatch('BeforeTool', input());
      expect(d.decision).toBe('deny');
      expect(d.hooks[0]!.error!.code).toBe('pack_tampered');
    });
  });

  it('recovers from a policy pack refused at startup once its pin matches again', async () => {
    const base = tempDir();
    const pack = writePack(
      {
        hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: './check.sh' }] }] },
        files: { 'check.sh': script({ decision: 'allow', reason: 'v2' }) },
      },
      join(base, 'packs', 'guard'),
    );
    const { digest } = await lockPack(pack);
    const cfg = writeConfig(base, 'policy.json', {
      packs: [{ path: 'packs/guard', digest: `sha256:${'0'.repeat(64)}` }],
    });
    await withExecutor({ policy: cfg }, async (hw) => {
      expect((await hw.dispatch('BeforeTool', input())).decidedBy).toBe('policy');
      replaceFile(cfg, { packs: [{ path: 'packs/guard', digest }] });
      expect(await hw.reload()).toMatchObject({ ok: true, generation: 2 });
      expect(await hw.dispatch('BeforeTool', input())).toMatchObject({ decision: 'allow', reason: 'v2' });
    });
  });

  it('lets a dispatch in flight finish on the generation it started with', async () => {
    const cfg = writeConfig(
      tempDir(),
      'hooks.json',
      hooksOn('SessionStart', [
        { name: 'slow-a', argv: ['/bin/sh', '-c', 'sleep 0.4; echo \'{"additionalContext":"a"}\''] },
      ]),
    );
    await withExecutor({ config: cfg }, async (hw) => {
      const inFlight = hw.dispatch('SessionStart', input());
      replaceFile(cfg, generation('b'));
      expect((await hw.reload()).ok).toBe(true);
      expect(ids(await hw.dispatch('SessionStart', input()))).toBe('b1,b2');
      const r = await inFlight;
      expect([ids(r), r.additionalContext]).toEqual(['slow-a', 'a']);
    });
  });

  it('rejects after close()', async () => {
    const hw = await createExecutor({ config: hooksOn('SessionStart', []) });
    await hw.close();
    await expect(hw.reload()).rejects.toMatchObject({ code: 'closed' });
  });

  it('validates the watch and onReload options', async () => {
    await expect(createExecutor({ watch: 'yes' as never })).rejects.toThrow(
      'watch: expected true or false, got "yes"',
    );
    await expect(createExecutor({ onReload: 1 as never })).rejects.toThrow(
      'onReload: expected a function, got 1',
    );
  });
});

describe('watch: true', () => {
  it('picks up an editor’s write-then-rename after the debounce; close() stops watching', async () => {
    const cfg = writeConfig(tempDir(), 'hooks.json', generation('a'));
    const reloads: ReloadResult[] = [];
    const hw = await createExecutor({
      config: cfg,
      watch: true,
      onReload: (r) => reloads.push(r),
      onWarning: () => {},
    });
    try {
      replaceFile(cfg, generation('b'));
      await eventually(async () => ids(await hw.dispatch('SessionStart', input())) === 'b1,b2');
      expect(reloads.at(-1)).toMatchObject({ ok: true });
    } finally {
      await hw.close();
    }
    const seen = reloads.length;
    // A witness watching the same file reloads twice: by its second reload, a reload of the closed
    // executor for the first change would have come too (the same kind of watch, the same debounce).
    const witnessed: ReloadResult[] = [];
    const witness = await createExecutor({
      config: cfg,
      watch: true,
      onReload: (r) => witnessed.push(r),
      onWarning: () => {},
    });
    try {
      replaceFile(cfg, generation('c'));
      await eventually(() => witnessed.length >= 1);
      replaceFile(cfg, generation('d'));
      await eventually(() => witnessed.length >= 2);
    } finally {
      await witness.close();
    }
    expect(reloads.length).toBe(seen);
  });

  it('keeps the last good generation on a broken edit and reports it through onWarning and onReload', async () => {
    const cfg = writeConfig(tempDir(), 'hooks.json', generation('a'));
    const reloads: ReloadResult[] = [];
    await withExecutor(
      { config: cfg, watch: true, onReload: (r) => reloads.push(r) },
      async (hw, warnings) => {
        replaceFile(cfg, '{ broken');
        await eventually(() => reloads.some((r) => !r.ok));
        expect(warnings.join('\n')).toContain('reload refused: invalid JSON at line 1');
        expect(ids(await hw.dispatch('SessionStart', input()))).toBe('a1,a2');
        replaceFile(cfg, generation('b'));
        await eventually(async () => ids(await hw.dispatch('SessionStart', input())) === 'b1,b2');
        expect(reloads.at(-1)).toMatchObject({ ok: true, generation: 2 });
      },
    );
  });

  it('rolls out a new pack version when the config switches its pin', async () => {
    const base = tempDir();
    const version = async (v: string, reason: string) => {
      const dir = writePack(
        {
          version: v,
          hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: './check.sh' }] }] },
          files: { 'check.sh': script({ decision: 'deny', reason }) },
        },
        join(base, 'packs', `guard-${v}`),
      );
      return { path: `packs/guard-${v}`, digest: (await lockPack(dir)).digest };
    };
    const v1 = await version('1.0.0', 'v1');
    const cfg = writeConfig(base, 'policy.json', { packs: [v1] });
    let reloads = 0;
    await withExecutor({ policy: cfg, watch: true, onReload: () => reloads++ }, async (hw) => {
      // Reading the watched pack (at load, at each spawn) is not a change: watching what the
      // executor watches, nothing is reported before a marker written after the dispatch.
      const quiet = await watchedQuiet(internalsOf(hw).loaded().watchTargets, async () => {
        expect((await hw.dispatch('BeforeTool', input())).reason).toBe('v1');
      });
      expect(quiet).toEqual([]);
      const v2 = await version('1.1.0', 'v2');
      replaceFile(cfg, { packs: [v2] });
      await eventually(async () => (await hw.dispatch('BeforeTool', input())).reason === 'v2');
      // One reload: the switch of the pin, none for the reads.
      expect(reloads).toBe(1);
    });
  });

  it('every dispatch sees one whole generation while reloads swap them under concurrent load', async () => {
    const cfg = writeConfig(tempDir(), 'hooks.json', generation('a'));
    let reloads = 0;
    await withExecutor({ config: cfg, watch: true, onReload: () => reloads++ }, async (hw) => {
      const seen = new Set<string>();
      let stop = false;
      const load = (async () => {
        while (!stop) {
          const batch = await Promise.all(
            Array.from({ length: 8 }, () => hw.dispatch('SessionStart', input())),
          );
          for (const r of batch) seen.add(`${ids(r)}|${r.additionalContext}`);
        }
      })();
      for (let i = 0; i < 6; i++) {
        const before = reloads;
        replaceFile(cfg, generation(i % 2 === 0 ? 'b' : 'a'));
        const manual = hw.reload(); // a manual reload racing the watched one
        await eventually(() => reloads >= before + 2);
        expect((await manual).ok).toBe(true);
      }
      stop = true;
      await load;
      expect([...seen].sort()).toEqual(['a1,a2|a1\na2', 'b1,b2|b1\nb2']);
    });
  });
});
