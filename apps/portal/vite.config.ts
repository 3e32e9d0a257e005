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
    // dist/.vite/manifest.json: what each page loads, read by the bundle budget (src/budget.test.ts).
    manifest: true,
    rollupOptions: {
      // Two pages: the merchant portal and the operators' console (served at /operador).
      input: { main: "index.html", operador: "operador.html" },
      output: {
        // What both pages load, named: React (`react`), and the styles and formats the console
        // borrows from the portal (`comun`). Any other chunk is one page's alone, and the bundle
        // budget fails if the other page pulls it.
        manualChunks: (id) =>
          /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)
            ? "react"
            : /[\\/]src[\\/](styles\.css|format\.ts)$/.test(id)
              ? "comun"
              : undefined
      }
    },
    // No inline script: the server's Content-Security-Policy allows only this origin's files.
    modulePreload: { polyfill: false }
  }
})
