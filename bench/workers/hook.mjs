// The trivial hook as a per-call `node hook.js` process (what command-hook systems do today).
let s = '';
process.stdin
  .on('data', (d) => (s += d))
  .on('end', () => {
    const input = JSON.parse(s);
    process.stdout.write(JSON.stringify({ decision: input.toolName === 'rm' ? 'deny' : 'allow' }));
  });
