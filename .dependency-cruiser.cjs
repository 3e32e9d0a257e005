/**
 * The import arrows of DESIGN §2, checked by `npm run lint` (dependency-cruiser):
 *
 *   packages: core <- api <- sdk <- cli
 *   apps:     core + api -> apps/server;  sdk -> apps/mcp, apps/portal;  core -> apps/bank-sim, apps/card-sim
 *   nothing imports an app; packages never import apps
 *   apps/server: platform <- http <- features (one folder each under src/), and a feature
 *                imports no other feature (what two share moves down)
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
  "card-sim": app("card-sim"),
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
    only("card-sim", "core"),
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
      from: { path: FEATURE, pathNot: TESTS },
      to: OTHER_FEATURE
    }
  ],
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
