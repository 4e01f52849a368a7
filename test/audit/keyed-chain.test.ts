// Keyed audit files: every record authenticated with HMAC-SHA-256 under the audit key, so a writer
// without the key cannot edit, add, re-chain or downgrade records unnoticed. Real files, real CLI.
import { createHash, createSecretKey, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENESIS } from '../../src/audit/hash-chain.js';
import { verifyChain } from '../../src/audit/index.js';
import { runCli } from '../helpers/cli.js';
import { hooksOn, input, printing, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n');
const write = (file: string, l: string[]) => writeFileSync(file, `${l.join('\n')}\n`);
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

/** A key file with mode 0600 holding `bytes` (fresh random ones by default) as hex. */
function keyFile(bytes = randomBytes(32), dir = tempDir()): { path: string; bytes: Buffer } {
  const path = join(dir, 'audit.key');
  writeFileSync(path, `${bytes.toString('hex')}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { path, bytes };
}

const CONFIG = hooksOn('BeforeTool', [printing({}, { name: 'x' })]);

async function keyedFile(key: string | Buffer, dispatches = 3, file = join(tempDir(), 'audit.jsonl')) {
  await withExecutor({ config: CONFIG, audit: { file, key } }, async (hw) => {
    for (let i = 0; i < dispatches; i++) await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
  });
  return file;
}

/** What someone without the key can do: rewrite the records and recompute every plain link. */
function rechainUnkeyed(l: string[]): string[] {
  let prev = GENESIS;
  return l.map((line) => {
    const { mac: _mac, ...rec } = JSON.parse(line) as Record<string, unknown>;
    const out = JSON.stringify({ ...rec, prev });
    prev = sha(out);
    return out;
  });
}

describe('a keyed audit file', () => {
  it('authenticates every record: HMAC links, a MAC per line, verified with the key', async () => {
    const key = keyFile();
    const file = await keyedFile(key.path);
    const recs = lines(file).map((l) => JSON.parse(l) as { prev: string; mac: string });
    expect(recs).toHaveLength(3);
    expect(recs[0]!.prev).toBe(`hmac-sha256:${'0'.repeat(64)}`);
    for (const [i, r] of recs.entries()) {
      expect(r.mac).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
      if (i > 0) expect(r.prev).toBe(recs[i - 1]!.mac);
    }
    const text = readFileSync(file, 'utf8');
    // The key as a file, as bytes, or as a KeyObject.
    for (const k of [key.path, key.bytes, createSecretKey(key.bytes)]) {
      expect(verifyChain(text, { key: k })).toEqual({
        ok: true,
        mode: 'hmac-sha256',
        records: 3,
        head: recs[2]!.mac,
      });
    }
    const cli = await runCli(['audit', 'verify', file, '--key', key.path]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/^ok: .*: 3 records, authentic \(keyed/);
  });

  it('continues across executors with the same key', async () => {
    const key = keyFile();
    const file = await keyedFile(key.path, 2);
    await keyedFile(key.bytes, 1, file);
    expect(verifyChain(readFileSync(file, 'utf8'), { key: key.path })).toMatchObject({
      ok: true,
      records: 3,
    });
  });

  // [what, tamper, first unverified line, problem]
  it.each([
    [
      'an edited record',
      (l: string[]) => {
        l[1] = l[1]!.replace('"proceed"', '"deny"');
      },
      2,
      /line 2 was edited \(its MAC does not verify with this key\)/,
    ],
    [
      'an edited last record (no later line vouches for it)',
      (l: string[]) => {
        l[2] = l[2]!.replace('"proceed"', '"deny"');
      },
      3,
      /line 3 was edited/,
    ],
    [
      'an edit re-chained with forged hmac-looking links',
      (l: string[]) => {
        let prev = `hmac-sha256:${'0'.repeat(64)}`;
        for (const [i, line] of l.entries()) {
          const { mac: _m, ...rec } = JSON.parse(line) as Record<string, unknown>;
          if (i === 1) rec.outcome = 'deny';
          const body = JSON.stringify({ ...rec, prev });
          prev = `hmac-sha256:${createHash('sha256').update(body).digest('hex')}`;
          l[i] = `${body.slice(0, -1)},"mac":"${prev}"}`;
        }
      },
      1,
      /no record verifies with this key/,
    ],
    [
      'a deleted record',
      (l: string[]) => {
        l.splice(1, 1);
      },
      2,
      /seq jumps from 1 to 3/,
    ],
    [
      'an unkeyed record appended',
      (l: string[]) => {
        const last = JSON.parse(l[2]!) as { seq: number };
        l.push(JSON.stringify({ seq: last.seq + 1, prev: sha(l[2]!), outcome: 'allow' }));
      },
      4,
      /line 4's prev is not an hmac-sha256 link \(an unkeyed line in a keyed file/,
    ],
    [
      'a record without its MAC',
      (l: string[]) => {
        l[1] = l[1]!.replace(/,"mac":"[^"]+"\}$/, '}');
      },
      2,
      /line 2 has no MAC/,
    ],
  ])('detects %s with the key', async (_what, tamper, line, problem) => {
    const key = keyFile();
    const file = await keyedFile(key.path);
    const l = lines(file);
    tamper(l);
    write(file, l);
    expect(verifyChain(readFileSync(file, 'utf8'), { key: key.path })).toMatchObject({
      ok: false,
      mode: 'hmac-sha256',
      line,
      records: line - 1,
      problem: expect.stringMatching(problem),
    });
    const cli = await runCli(['audit', 'verify', file, '--key', key.path]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/^broken: /);
    expect(cli.stdout).toContain(`not verified: line ${line} onwards`);
  });

  it('detects records taken from another file written with the same key', async () => {
    const key = keyFile();
    const a = await keyedFile(key.path);
    const b = await keyedFile(key.path);
    const la = lines(a);
    la[1] = lines(b)[1]!; // authentic, seq 2, but it follows b's line 1
    write(a, la);
    expect(verifyChain(readFileSync(a, 'utf8'), { key: key.path })).toMatchObject({
      ok: false,
      line: 2,
      problem: expect.stringMatching(/line 2 does not follow line 1 \(its prev is not line 1's MAC\)/),
    });
  });

  it('detects the wrong key', async () => {
    const file = await keyedFile(keyFile().path);
    const other = keyFile();
    expect(verifyChain(readFileSync(file, 'utf8'), { key: other.path })).toMatchObject({
      ok: false,
      line: 1,
      records: 0,
      problem: expect.stringMatching(/no record verifies with this key: it is the wrong key/),
    });
    const cli = await runCli(['audit', 'verify', file, '--key', other.path]);
    expect(cli.code).toBe(1);
  });

  describe('cannot be downgraded', () => {
    it('rewritten as an unkeyed chain, it is refused by a keyed verify', async () => {
      const key = keyFile();
      const file = await keyedFile(key.path);
      const l = lines(file);
      l[1] = l[1]!.replace('"proceed"', '"deny"');
      write(file, rechainUnkeyed(l));
      const text = readFileSync(file, 'utf8');
      // Without the key it is merely an intact unkeyed chain: integrity, not authenticity.
      expect(verifyChain(text)).toMatchObject({ ok: true, mode: 'sha256' });
      expect(verifyChain(text, { key: key.path })).toMatchObject({
        ok: false,
        mode: 'sha256',
        line: 1,
        records: 0,
        problem: expect.stringMatching(/not keyed: its links are plain sha256/),
      });
      const cli = await runCli(['audit', 'verify', file, '--key', key.path]);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toMatch(/^broken: .*the file is not keyed/);
    });

    it('verified without the key, a keyed file says it needs the key', async () => {
      const file = await keyedFile(keyFile().path);
      expect(verifyChain(readFileSync(file, 'utf8'))).toMatchObject({ ok: false, needsKey: true });
      const cli = await runCli(['audit', 'verify', file]);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toMatch(/^needs key: .* is keyed \(HMAC-SHA-256 links\)/);
      const json = await runCli(['audit', 'verify', file, '--json']);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, needsKey: true, mode: 'hmac-sha256' });
    });

    it('an unkeyed line spliced in first makes a keyed verify refuse the file', async () => {
      const key = keyFile();
      const file = await keyedFile(key.path);
      const l = lines(file);
      l[0] = rechainUnkeyed([l[0]!])[0]!;
      write(file, l);
      expect(verifyChain(readFileSync(file, 'utf8'), { key: key.path })).toMatchObject({
        ok: false,
        line: 1,
      });
    });
  });

  describe('the writer', () => {
    it('refuses to continue a keyed file with another key, or without a key', async () => {
      const file = await keyedFile(keyFile().path, 1);
      await expect(keyedFile(keyFile().path, 1, file)).rejects.toThrow(
        /audit: .*the last record's MAC does not verify with this key/,
      );
      await expect(withExecutor({ config: CONFIG, audit: file }, async () => {})).rejects.toThrow(
        /audit: .* is a keyed audit file .*give its key/,
      );
      expect(lines(file)).toHaveLength(1);
    });

    it('refuses to continue an unkeyed file with a key', async () => {
      const file = join(tempDir(), 'audit.jsonl');
      await withExecutor({ config: CONFIG, audit: file }, (hw) => hw.dispatch('BeforeTool', input()));
      await expect(keyedFile(keyFile().path, 1, file)).rejects.toThrow(
        /audit: .* is an unkeyed audit file .*use a new file/,
      );
    });

    it('refuses a key without a file', async () => {
      await expect(
        withExecutor({ config: CONFIG, audit: { key: randomBytes(32), onRecord: () => {} } }, async () => {}),
      ).rejects.toThrow(/audit: key: .*give audit.file too/);
    });
  });
});

describe('audit keys', () => {
  it.each([
    [
      'group-readable',
      (p: string) => chmodSync(p, 0o640),
      /accessible to group or others \(mode 0640\).*chmod 600/,
    ],
    ['world-readable', (p: string) => chmodSync(p, 0o604), /mode 0604/],
    [
      'a symlink',
      (p: string) => {
        const link = `${p}.link`;
        symlinkSync(p, link);
        return link;
      },
      /is a symlink/,
    ],
    [
      'too short',
      (p: string) => {
        writeFileSync(p, randomBytes(16).toString('hex'));
      },
      /has 16 bytes; an audit key needs at least 32/,
    ],
    ['missing', (p: string) => `${p}.missing`, /does not exist/],
  ])('a key file that is %s is refused, saying how to fix it', async (_what, spoil, message) => {
    const key = keyFile();
    const path = (spoil(key.path) as string | undefined) ?? key.path;
    await expect(keyedFile(path, 1)).rejects.toThrow(message);
    const cli = await runCli(['audit', 'verify', join(tempDir(), 'none.jsonl'), '--key', path]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(new RegExp(`--key: key file .*${message.source}`));
  });

  it('may be bytes too short only as an error', async () => {
    await expect(keyedFile(randomBytes(31), 1)).rejects.toThrow(/has 31 bytes/);
  });

  it('is read from hex, base64 or raw bytes alike', async () => {
    const bytes = randomBytes(32);
    const file = await keyedFile(bytes);
    const dir = tempDir();
    for (const [name, content] of [
      ['hex', bytes.toString('hex').toUpperCase()],
      ['base64', `  ${bytes.toString('base64')}\n`],
      ['raw', bytes],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, content, { mode: 0o600 });
      expect([name, verifyChain(readFileSync(file, 'utf8'), { key: path }).ok]).toEqual([name, true]);
    }
  });
});

describe('the CLI', () => {
  it('keygen, dispatch --audit-key and audit verify --key work end to end', async () => {
    const dir = tempDir();
    const keyPath = join(dir, 'secrets', 'deep', 'audit.key');
    const gen = await runCli(['audit', 'keygen', '--out', keyPath]);
    expect(gen.code).toBe(0);
    expect(gen.stdout).toContain(`audit key: ${keyPath} (32 random bytes as hex, mode 0600)`);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'secrets', 'deep')).mode & 0o777).toBe(0o700);
    expect(readFileSync(keyPath, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    const again = await runCli(['audit', 'keygen', '--out', keyPath]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);

    const config = writeConfig(dir, 'hooks.json', CONFIG);
    const audit = join(dir, 'audit.jsonl');
    for (let i = 0; i < 2; i++) {
      const r = await runCli([
        'dispatch',
        'BeforeTool',
        '-c',
        config,
        '--audit',
        audit,
        '--audit-key',
        keyPath,
      ]);
      expect(r.code).toBe(0);
    }
    expect(lines(audit).every((l) => /"mac":"hmac-sha256:[0-9a-f]{64}"\}$/.test(l))).toBe(true);
    const ok = await runCli(['audit', 'verify', audit, '--key', keyPath, '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, mode: 'hmac-sha256', records: 2 });
    const plain = await runCli(['audit', 'verify', audit]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toMatch(/^needs key: /);
    // Continuing the keyed file without its key is refused, and the file is left as it was.
    const unkeyed = await runCli(['dispatch', 'BeforeTool', '-c', config, '--audit', audit]);
    expect(unkeyed.code).toBe(1);
    expect(unkeyed.stderr).toMatch(/is a keyed audit file/);
    expect(lines(audit)).toHaveLength(2);
  });

  it('refuses --audit-key without --audit, and a key file others can read', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'hooks.json', CONFIG);
    const key = keyFile(undefined, dir);
    const alone = await runCli(['dispatch', 'BeforeTool', '-c', config, '--audit-key', key.path]);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toMatch(/--audit-key keys the --audit file/);
    chmodSync(key.path, 0o644);
    const open = await runCli([
      'dispatch',
      'BeforeTool',
      '-c',
      config,
      '--audit',
      join(dir, 'a.jsonl'),
      '--audit-key',
      key.path,
    ]);
    expect(open.code).toBe(1);
    expect(open.stderr).toMatch(
      /--audit-key: key file .* \(mode 0644\); only its owner may read it: chmod 600/,
    );
  });
});
