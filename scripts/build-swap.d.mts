// Declarations of build-swap.mjs (plain JavaScript: it runs before anything is compiled).

/** The name of every build folder of a checkout starts with it: `.dist-<id>`. */
export const PREFIX: string;
/** Puts the build `name` of the checkout `root` in force (a new `dist` link renamed over the old). */
export function swapIn(root: string, name: string): void;
