// Finds where a JSON text first goes wrong (V8's messages do not always say). A small iterative
// scanner: it only locates errors, JSON.parse does the parsing.

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Offset of the first syntax error, or -1 if the text is valid JSON. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const n = text.length;
  const stack: ('{' | '[')[] = [];
  const skipWs = () => {
    while (i < n && WS.has(text.charCodeAt(i))) i++;
  };
  const value = (): boolean => {
    skipWs();
    const c = text[i];
    if (c === '"') return string();
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      skipWs();
      if (text[i] === (c === '{' ? '}' : ']')) {
        stack.pop();
        i++;
        return true;
      }
      return c === '{' ? member() : value();
    }
    const lit = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(i, i + 400),
    );
    if (lit === null) return false;
    i += lit[0].length;
    return true;
  };
  const string = (): boolean => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return false;
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return false;
      } else i++;
    }
    return false;
  };
  const member = (): boolean => {
    skipWs();
    if (text[i] !== '"' || !string()) return false;
    skipWs();
    if (text[i] !== ':') return false;
    i++;
    return value();
  };
  if (!value()) return i;
  for (;;) {
    skipWs();
    const top = stack[stack.length - 1];
    if (top === undefined) return i < n ? i : -1;
    const close = top === '{' ? '}' : ']';
    if (text[i] === close) {
      stack.pop();
      i++;
      continue;
    }
    if (text[i] !== ',') return i;
    i++;
    if (!(top === '{' ? member() : value())) return i;
  }
}
