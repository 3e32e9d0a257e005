import { defineConfig } from "tsup"

// The published package names no workspace package. The Promise entry loads nothing at runtime
// and its types are plain (src/Types.ts, written from the contract by scripts/types.mjs). The
// Effect entry carries @switch/api and @switch/core inside it, code and declarations, and loads
// only `effect` and `@effect/platform`, its optional peer dependencies.
export default defineConfig({
  entry: ["src/index.ts", "src/effect.ts"],
  format: ["esm", "cjs"],
  noExternal: [/^@switch\//],
  // The declarations are bundled from the workspace sources, so the relative imports inside
  // @switch/api and @switch/core resolve like any file of this package.
  dts: {
    compilerOptions: {
      paths: { "@switch/api": ["../api/src/index.ts"], "@switch/core": ["../core/src/index.ts"] }
    }
  },
  sourcemap: true,
  clean: true,
  target: "node20"
})
