// A JS hook on AfterTool: redacts things that look like credentials from a tool's output before the
// model sees it. Async works too (there are no timers: pending jobs run within the deadline).
const PATTERNS = [
  /\b(AKIA[0-9A-Z]{16})\b/g,
  /\b(ghp_[A-Za-z0-9]{36})\b/g,
  /(-----BEGIN [A-Z ]*PRIVATE KEY-----)/g,
];

export default async function (input) {
  if (typeof input.toolResult !== 'string') return;
  let text = input.toolResult;
  for (const p of PATTERNS) text = text.replace(p, '[REDACTED]');
  if (text !== input.toolResult) {
    console.log('redacted credentials from', input.toolName);
    return { updatedToolOutput: text };
  }
}
