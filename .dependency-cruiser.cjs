// The layer check (`npm run layers`, run by .ci/run): dependency-cruiser reads every import of src/,
// sandbox/, bench/ and scripts/ (static, dynamic `import()`, `require`, and type-only imports, which
// the compiler erases) and refuses an import that runs up the layers or across one, a cycle, a file
// in no layer, an import it cannot resolve, and product code in a folder named fixtures.
// docs/development.md describes the layers; this list is the one that is checked.

/** The layers, bottom first. A file imports only its own folder and the layers below its own. */
const LAYERS = [
  ['src/contract/'],
  // The far side of the boundary (the subprocess runner, the QuickJS worker, the C helpers) and the
  // Node-API guard: both import only src/contract/ (rules below).
  ['src/registry/', 'src/native/', 'sandbox/'],
  ['src/config/'],
  ['src/packs/', 'src/pool/', 'src/audit/'],
  ['src/dispatch/'],
  ['src/async/'],
  ['src/executor/'],
  ['src/fixture-runner/', 'src/server/', 'src/measure/'],
  // The command line and the package's entries (package.json `exports`).
  ['src/cli/', 'src/index.ts', 'src/packs-entry.ts'],
  // The benchmark scenarios and the build scripts may use any layer.
  ['bench/', 'scripts/'],
];

const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const pathOf = (member) => `^${escapeRegex(member)}${member.endsWith('/') ? '' : '$'}`;
const anyOf = (members) => `(${members.map(pathOf).join('|')})`;
const ALL = LAYERS.flat();

/** One rule per member: nothing in the same layer but itself, nothing above. */
const layerRules = LAYERS.flatMap((layer, i) =>
  layer.map((member) => ({
    name: `layer:${member}`,
    comment: `${member} imports only its own folder and the layers below it (${LAYERS.slice(0, i).flat().join(', ') || 'nothing'})`,
    severity: 'error',
    from: { path: pathOf(member) },
    to: { path: anyOf([...layer.filter((m) => m !== member), ...LAYERS.slice(i + 1).flat()]) },
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'sandbox-only-contract',
      comment: 'sandbox/ is the far side of the boundary: it imports only src/contract/ (and packages)',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: {
        pathNot: '^(sandbox/|src/contract/)',
        dependencyTypesNot: ['core', 'npm', 'npm-dev', 'npm-no-pkg'],
      },
    },
    {
      name: 'native-only-contract',
      comment: 'src/native/ (the Node-API guard) imports only src/contract/',
      severity: 'error',
      from: { path: '^src/native/' },
      to: {
        pathNot: '^(src/native/|src/contract/)',
        dependencyTypesNot: ['core', 'npm', 'npm-dev', 'npm-no-pkg'],
      },
    },
    {
      name: 'contract-imports-nothing',
      comment: 'src/contract/ is the ground: it imports only itself (and packages)',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { pathNot: '^src/contract/', dependencyTypesNot: ['core', 'npm', 'npm-dev', 'npm-no-pkg'] },
    },
    {
      name: 'no-circular',
      comment: 'files that import each other in a loop (type-only and dynamic imports count)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'in-a-layer',
      comment: 'every file of src/ and sandbox/ belongs to a layer: add a new folder to LAYERS',
      severity: 'error',
      from: { path: '^(src|sandbox)/', pathNot: anyOf(ALL) },
      to: {},
    },
    {
      name: 'to-a-layer',
      comment: 'nothing imports a file of src/ or sandbox/ that belongs to no layer',
      severity: 'error',
      from: {},
      to: { path: '^(src|sandbox)/', pathNot: anyOf(ALL) },
    },
    {
      name: 'no-product-code-in-fixtures',
      comment: 'product code never lives in a folder named fixtures (tools skip such folders)',
      severity: 'error',
      from: { path: '(^|/)fixtures?/', pathNot: '^(test|node_modules)/' },
      to: {},
    },
    {
      name: 'not-to-fixtures-or-tests',
      comment: 'product code imports no test file and nothing under a folder named fixtures',
      severity: 'error',
      from: { path: '^(src|sandbox|bench|scripts)/' },
      to: { path: '(^test/|(^|/)fixtures?/)' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to no file',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    // Type-only imports are dependencies of the design even though the compiler erases them.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
