/**
 * Shell completion of the built `switch` beyond flags: the values of arguments (`links simulate
 * ID <Tab>`, `trigger <Tab>`, `completion <Tab>`) and of flags (`--estado <Tab>`, after a comma
 * too), in bash as a person presses Tab (tmux), and in zsh and fish where installed.
 */
import { execFileSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { BIN, hasTmux, inTmux, until } from "./support.js"

const has = (shell: string) => {
  try {
    execFileSync("sh", ["-c", `command -v ${shell}`], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

// `switch` on the PATH, as `npm install -g` leaves it.
const dir = mkdtempSync(join(tmpdir(), "switch-completion-"))
const binDir = join(dir, "bin")
mkdirSync(binDir)
writeFileSync(join(binDir, "switch"), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`)
chmodSync(join(binDir, "switch"), 0o755)
const PATH = `${binDir}:${process.env.PATH ?? ""}`
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const EVENTS = [
  "link.pagado",
  "link.acreditado",
  "link.devuelto",
  "transaccion.aprobada",
  "transaccion.liquidada",
  "transaccion.rechazada",
  "webhook.test"
]
const STATES = ["pendiente", "cobrando", "procesando", "revision", "pagado", "expirado", "cancelado"]

/** What bash's `_switch` offers for the words typed (the last one is the word at the cursor). */
const bash = (words: string) =>
  execFileSync(
    "bash",
    [
      "-c",
      `source <(switch completion bash); COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _switch; printf '%s\\n' "\${COMPREPLY[@]}"`
    ],
    { encoding: "utf8", env: { ...process.env, PATH } }
  )
    .split("\n")
    .filter(Boolean)

describe("completion of values", () => {
  it("bash offers the results, the events, the states and the shells, not the flags", () => {
    expect(bash('switch links simulate lnk_1 ""')).toEqual(["pagado", "rechazado", "expirado"])
    expect(bash('switch trigger ""')).toEqual(EVENTS)
    expect(bash("switch trigger transaccion.")).toEqual(EVENTS.filter((e) => e.startsWith("transaccion.")))
    expect(bash('switch links list --estado ""')).toEqual(STATES)
    expect(bash('switch --profile prod links list --limit 5 --estado ""')).toEqual(STATES)
    expect(bash("switch links list --estado pagado,pe")).toEqual(["pagado,pendiente"])
    expect(bash('switch completion ""')).toEqual(["bash", "zsh", "fish"])
    expect(bash('switch webhooks update wh_1 --estado ""')).toEqual(["activo", "inactivo"])
    expect(bash('switch listen --events ""')).toEqual(EVENTS)
    // A flag's value is not taken for a command or an argument.
    expect(bash('switch links list --estado pagado ""')).toContain("--limit")
    expect(bash('switch --profile links ""')).toEqual(expect.arrayContaining(["links", "trigger"]))
    // An argument without values (an id) leaves it to the shell; flags after "-".
    expect(bash('switch links get ""')).toEqual([])
    expect(bash("switch links simulate lnk_1 --")).toContain("--help")
  })

  it.skipIf(!hasTmux)(
    "pressing Tab twice in bash lists the values (tmux)",
    async () => {
      const rc = join(dir, "bashrc")
      writeFileSync(rc, [`export PATH='${PATH}'`, "source <(switch completion bash)", "PS1='$ '"].join("\n"))
      const tmux = inTmux("completion", `bash --noprofile --rcfile '${rc}' -i`, { width: 160, height: 40 })
      try {
        await until(() => tmux.screen().includes("$"), "the prompt")
        const tab = async (typed: string, expected: ReadonlyArray<string>) => {
          tmux.keys("C-u")
          tmux.keys("-l", typed)
          tmux.keys("Tab", "Tab")
          await until(
            () => {
              const screen = tmux.visible()
              return expected.every((word) => screen.includes(word))
            },
            `the values after "${typed}"`,
            10_000
          )
          tmux.keys("C-c")
          tmux.keys("clear", "Enter")
          await until(() => !tmux.visible().includes(typed), "a clear screen", 10_000)
          tmux.clearHistory()
        }
        await tab("switch links simulate lnk_1 ", ["pagado", "rechazado", "expirado"])
        await tab("switch trigger ", EVENTS)
        await tab("switch links list --estado ", STATES)
        await tab("switch completion ", ["bash", "zsh", "fish"])
      } finally {
        tmux.stop()
      }
    },
    60_000
  )

  // In fish `switch` is also a keyword: `command switch` runs the program.
  it.skipIf(!has("fish"))("fish offers the same values", () => {
    const fish = (line: string) =>
      execFileSync(
        "fish",
        ["--no-config", "-c", `command switch completion fish | source; complete -C '${line}'`],
        {
          encoding: "utf8",
          env: { ...process.env, PATH }
        }
      )
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t")[0])
        .sort()
    expect(fish("switch links simulate lnk_1 ")).toEqual(["expirado", "pagado", "rechazado"])
    expect(fish("switch trigger ")).toEqual([...EVENTS].sort())
    expect(fish("switch links list --estado pagado,pe")).toEqual(["pagado,pendiente"])
    expect(fish("switch completion ")).toEqual(["bash", "fish", "zsh"])
  })

  it.skipIf(!has("zsh") || !hasTmux)(
    "zsh offers the same values (tmux)",
    async () => {
      const zdot = join(dir, "zsh")
      mkdirSync(zdot, { recursive: true })
      writeFileSync(
        join(zdot, ".zshrc"),
        [
          `export PATH='${PATH}'`,
          "autoload -U compinit; compinit -u",
          "source <(switch completion zsh)",
          "PS1='%% '"
        ].join("\n")
      )
      const tmux = inTmux("completion-zsh", `env ZDOTDIR='${zdot}' zsh -i`, { width: 160, height: 40 })
      try {
        await until(() => tmux.screen().includes("%"), "the prompt")
        tmux.keys("-l", "switch links simulate lnk_1 ")
        tmux.keys("Tab")
        await until(
          () => ["pagado", "rechazado", "expirado"].every((w) => tmux.screen().includes(w)),
          "the results"
        )
        tmux.keys("C-u")
        tmux.keys("-l", "switch trigger ")
        tmux.keys("Tab")
        await until(() => EVENTS.every((w) => tmux.screen().includes(w)), "the events")
      } finally {
        tmux.stop()
      }
    },
    60_000
  )
})
