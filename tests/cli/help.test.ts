/**
 * The built `switch`'s help and usage errors speak one language, Spanish, as the product does,
 * and every command's help ends with examples of that command. The commands are read from the
 * completion script, so a new command is covered without being listed here.
 */
import { spawnSync } from "node:child_process"
import { afterAll, describe, expect, it } from "vitest"
import { BIN, makeCli } from "./support.js"

// Nothing here reaches a server: help and usage errors are decided before any request.
const cli = makeCli("http://127.0.0.1:9", { SWITCH_KEY: "demo:sk_test_123" })
afterAll(() => cli.cleanup())

/** Commander's English framing and messages, none of which may reach the person. */
const ENGLISH =
  /Usage:|Options:|Commands:|Arguments:|Global Options|display help|output the version|\[options\]|\[command\]|\(default:|choices:|Allowed choices|unknown (command|option)|missing required|not specified|argument missing|too many arguments|is invalid|Did you mean|cannot be used/

const paths = async (): Promise<ReadonlyArray<string>> => {
  const script = (await cli.run(["completion", "bash"])).stdout
  const flags = script.slice(script.indexOf("_switch_flags()"), script.indexOf("_switch_value()"))
  return [...flags.matchAll(/^ {4}"([^"]*)"\)/gm)].map((m) => m[1] ?? "")
}

/** Runs `tasks` two at a time (the machine is shared). */
const pooled = async <T>(tasks: ReadonlyArray<() => Promise<T>>): Promise<Array<T>> => {
  const out: Array<T> = []
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++
      out[i] = await (tasks[i] as () => Promise<T>)()
    }
  }
  await Promise.all([worker(), worker()])
  return out
}

describe("help", () => {
  it("is in Spanish for every command, and ends with examples of that command", async () => {
    const all = await paths()
    expect(all.length).toBeGreaterThan(50)
    expect(all).toEqual(
      expect.arrayContaining(["", "links simulate", "webhooks test", "logs tail", "delete"])
    )
    const helps = await pooled(
      all.map((path) => () => cli.run([...path.split(" ").filter(Boolean), "--help"]))
    )
    const missing: Array<string> = []
    all.forEach((path, i) => {
      const help = helps[i]!
      expect(help.code, path).toBe(0)
      expect(help.stdout, path).not.toMatch(ENGLISH)
      expect(help.stdout, path).toContain(`Uso: switch${path === "" ? "" : ` ${path}`}`)
      const examples = help.stdout.split("\nEjemplos:\n")[1] ?? ""
      const lines = examples.split("\n").filter((line) => line.startsWith("  "))
      if (!lines.some((line) => line.includes(`switch ${path}`)))
        missing.push(path === "" ? "(switch)" : path)
    })
    expect(missing, "commands without an example of themselves").toEqual([])
  }, 120_000)

  it("says help, version and the help command in Spanish", async () => {
    const root = await cli.run(["--help"])
    expect(root.stdout).toContain("-h, --help")
    expect(root.stdout).toContain("muestra la ayuda del comando")
    expect(root.stdout).toContain("muestra la versión")
    expect(root.stdout).toContain("help [comando]")
    const viaCommand = await cli.run(["help", "links"])
    expect(viaCommand.code).toBe(0)
    expect(viaCommand.stdout).toContain("Uso: switch links [opciones] [comando]")
    expect(viaCommand.stdout).toContain("Comandos:")
  })

  it("gives usage errors in Spanish, exit 2", async () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["links", "crate"], "comando desconocido 'crate'"],
      [["--jsn", "whoami"], "opción desconocida '--jsn'"],
      [["links", "get"], "falta el argumento obligatorio 'id'"],
      [["links", "get", "a", "b"], "demasiados argumentos para 'get'"],
      [["links", "create", "--concepto", "x"], "falta la opción obligatoria '--monto <monto>'"],
      [["links", "create", "--monto"], "falta el valor de la opción '--monto <monto>'"],
      [
        ["links", "create", "--monto", "x", "--concepto", "y"],
        "el valor 'x' de la opción '--monto <monto>' no es válido"
      ],
      [["trigger", "link.inventado"], "Valores admitidos: link.pagado"]
    ]
    for (const [args, spanish] of cases) {
      const result = await cli.run(args)
      expect(result.code, args.join(" ")).toBe(2)
      expect(result.stderr, args.join(" ")).toContain(spanish)
      expect(result.stderr, args.join(" ")).not.toMatch(ENGLISH)
    }
    const json = await cli.run(["--json", "links", "crate"])
    expect(JSON.parse(json.stderr)).toEqual({
      error: "uso_invalido",
      detail: "comando desconocido 'crate'\n(¿quiso decir create?)"
    })
  })
})

describe("a reader that stops early", () => {
  it("ends `switch --help | true` (the reader gone before the help is written) quietly: exit 0, no EPIPE", () => {
    const piped = spawnSync(
      "bash",
      ["-o", "pipefail", "-c", `"${process.execPath}" "${BIN}" --help | true`],
      { encoding: "utf8" }
    )
    expect(piped.stderr).not.toMatch(/EPIPE|Unhandled/)
    expect(piped.status, piped.stderr).toBe(0)
  })
})
