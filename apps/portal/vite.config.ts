import { defineConfig } from "vite"

/**
 * The portal is served by apps/server under `/panel/`; every asset name carries its content
 * hash, so the server may cache them for a year while index.html is never cached.
 * JSX goes through esbuild (no React plugin: there is no dev server with fast refresh to feed).
 */
export default defineConfig({
  base: "/panel/",
  esbuild: { jsx: "automatic" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2020",
    assetsDir: "assets",
    // Two pages: the merchant portal and the operators' console (served at /operador).
    rollupOptions: { input: { main: "index.html", operador: "operador.html" } },
    // No inline script: the server's Content-Security-Policy allows only this origin's files.
    modulePreload: { polyfill: false }
  }
})
