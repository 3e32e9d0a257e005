#!/usr/bin/env node
import { run } from "./Program.js"

// A reader that stops early (`switch --help | head`, `| grep -q`) closes the pipe: that ends the
// command quietly, as for any Unix tool, rather than as an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0)
    throw error
  })

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(
      `error inesperado: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`
    )
    process.exitCode = 1
  }
)
