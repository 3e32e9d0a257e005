/**
 * The import arrows of DESIGN §2, checked by `npm run lint` (dependency-cruiser):
 *
 *   packages: core <- api <- sdk <- cli
 *   apps:     core + api -> apps/server;  sdk -> apps/mcp, apps/portal;  core -> apps/bank-sim
 *   nothing imports an app; packages never import apps
 *   apps/server: platform <- http <- features (one folder each under src/), features import
 *                no other feature except the allow-list below, which may only shrink
 *   no import cycle anywhere, type-only imports included
 *
 * Test files (`*.test.ts`, `test/`, the cross-app suites in `tests/`, vitest configs) may import
 * across: they start servers and simulators. `@switch/*` resolve to their sources through
 * tsconfig.arrows.json, so the check needs no build.
 */

/** Test code, exempt from the arrows (never from the cycle rule). */
const TESTS = ["\\.test\\.ts$", "(^|/)test/", "^tests/", "(^|/)vitest[^/]*\\.config\\.ts$"]

const pkg = (name) => `^packages/${name}/`
const app = (name) => `^apps/${name}/`
const WORKSPACES = {
  core: pkg("core"),
  api: pkg("api"),
  sdk: pkg("sdk"),
  cli: pkg("cli"),
  server: app("server"),
  mcp: app("mcp"),
  portal: app("portal"),
  "bank-sim": app("bank-sim"),
  examples: "^examples/",
  tests: "^tests/",
  scripts: "^scripts/"
}
const others = (...allowed) =>
  Object.entries(WORKSPACES)
    .filter(([name]) => !allowed.includes(name))
    .map(([, path]) => path)

/** A workspace may import itself and the workspaces named, nothing else of this repository. */
const only = (name, ...allowed) => ({
  name: `arrows-${name}`,
  comment: `${name} may import only ${allowed.length === 0 ? "itself" : allowed.join(", ")} of this repository (DESIGN §2)`,
  severity: "error",
  from: { path: WORKSPACES[name], pathNot: TESTS },
  to: { path: others(name, ...allowed) }
})

const SRC = "^apps/server/src/"
/** Feature folders: every folder under apps/server/src but platform, http and migrations. */
const FEATURE = `${SRC}(?!platform/|http/|migrations/)([^/]+)/`
/** What composes the server: only main.ts and the tests may import these. */
const ROOTS = [`${SRC}main\\.ts$`, `${SRC}Http\\.ts$`, `${SRC}Prepare\\.ts$`]

/**
 * Feature -> feature imports left from before the rule (issue 30), by importing file. Fix one by
 * moving the shared piece down into platform/ or http/, or by inverting it with a Context tag
 * provided in Http.ts; then delete its line. Never add a line: a new one fails the lint.
 */
const KNOWN_FEATURE_IMPORTS = {
  // The payment page records customers.
  "checkout/Settle.ts": ["clientes/Clientes.ts"]
}

/** The regular expression of exactly one file under apps/server/src. */
const serverFile = (file) => `^apps/server/src/${file.replace(/[.]/g, "\\.")}$`
const OTHER_FEATURE = { path: `${SRC}(?!platform/|http/|migrations/)[^/]+/`, pathNot: [`${SRC}$1/`] }

module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "no import cycle anywhere, in any package, app or test (type-only imports count too)",
      severity: "error",
      from: {},
      to: { circular: true }
    },
    {
      name: "no-unresolvable",
      comment: "every import resolves (a workspace not in tsconfig.arrows.json would slip past the arrows)",
      severity: "error",
      from: {},
      to: { couldNotResolve: true }
    },
    only("core"),
    only("api", "core"),
    only("sdk", "core", "api"),
    only("cli", "sdk"),
    only("server", "core", "api"),
    only("mcp", "sdk"),
    only("portal", "sdk"),
    only("bank-sim", "core"),
    only("examples", "sdk"),
    only("scripts"),
    {
      name: "server-platform",
      comment:
        "apps/server: platform/ (and migrations/, Config.ts) import no feature folder, no http/, no root",
      severity: "error",
      from: { path: [`${SRC}platform/`, `${SRC}migrations/`, `${SRC}Config\\.ts$`], pathNot: TESTS },
      to: { path: [FEATURE, `${SRC}http/`, ...ROOTS] }
    },
    {
      name: "server-http",
      comment: "apps/server: http/ imports platform/ only, no feature folder and no root",
      severity: "error",
      from: { path: `${SRC}http/`, pathNot: TESTS },
      to: { path: [FEATURE, ...ROOTS] }
    },
    {
      name: "server-roots",
      comment:
        "apps/server: main.ts, Http.ts and Prepare.ts compose the server; only main.ts and tests import them",
      severity: "error",
      from: { path: SRC, pathNot: [...TESTS, `${SRC}main\\.ts$`, `${SRC}Http\\.ts$`] },
      to: { path: ROOTS }
    },
    {
      name: "server-feature-imports-feature",
      comment: "apps/server: a feature folder imports no other feature folder (move the shared piece down)",
      severity: "error",
      from: {
        path: FEATURE,
        pathNot: [...TESTS, ...Object.keys(KNOWN_FEATURE_IMPORTS).map((file) => serverFile(file))]
      },
      to: OTHER_FEATURE
    },
    ...Object.entries(KNOWN_FEATURE_IMPORTS).map(([file, allowed]) => ({
      name: "server-feature-imports-feature",
      comment: `apps/server: ${file} may import only its known feature files`,
      severity: "error",
      from: { path: serverFile(file) },
      to: {
        path: OTHER_FEATURE.path,
        pathNot: [`^apps/server/src/${file.split("/")[0]}/`, ...allowed.map((t) => serverFile(t))]
      }
    }))
  ],
  // Each known import must still exist: once one is gone, delete its line above, so the list shrinks.
  required: Object.entries(KNOWN_FEATURE_IMPORTS).flatMap(([file, allowed]) =>
    allowed.map((target) => ({
      name: "server-known-feature-import-gone",
      comment: `${file} no longer imports ${target}: delete it from KNOWN_FEATURE_IMPORTS`,
      severity: "error",
      module: { path: serverFile(file) },
      to: { path: serverFile(target) }
    }))
  ),
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|coverage|\\.turbo|\\.switch)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.arrows.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".d.ts"]
    }
  }
}
