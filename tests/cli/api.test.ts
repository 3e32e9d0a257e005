/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: fixtures refer to earlier answers as ${name:field} */
/**
 * The built `switch` for any route (`get`, `post`), fixtures, `logs tail`, `events resend`,
 * `--json` everywhere, shell completion, and a login prompt that does not show the key (tmux).
 */
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { Switch } from "@switch/sdk"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"
import { BIN, hasTmux, makeCli, spawnCli, until } from "./support.js"

let stack: Stack
let cli: ReturnType<typeof makeCli>

beforeAll(async () => {
  // Webhooks on loopback (development switch) for events resend's receiver.
  stack = await startStack({ SWITCH_WEBHOOK_ALLOW_PRIVATE: "1", SWITCH_API_POR_MINUTO: "100000" })
  cli = makeCli(stack.url, { SWITCH_KEY: "" })
  await cli.run(["login", "--key", stack.demoKey])
}, 240_000)
afterAll(async () => {
  cli?.cleanup()
  await stack?.stop()
})

/** A local HTTP server answering with `handler`; resolves with its URL. */
const serve = async (
  handler: (method: string, url: string, body: string, headers: Record<string, unknown>) => [number, unknown]
): Promise<{ url: string; server: Server }> => {
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => {
      body += chunk
    })
    req.on("end", () => {
      const [status, answer] = handler(req.method ?? "", req.url ?? "", body, req.headers)
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(answer))
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

describe("get and post", () => {
  it("call any route with the profile's key and print the answer", async () => {
    const created = await cli.run([
      "post",
      "/switch/v1/links",
      "--data",
      '{"monto":12.5,"concepto":"Ruta libre"}'
    ])
    expect(created.code, created.stderr).toBe(0)
    const link = JSON.parse(created.stdout)
    expect(link.monto).toBe(12.5)
    const got = await cli.run(["get", `links/${link.id}`])
    expect(got.code, got.stderr).toBe(0)
    expect(JSON.parse(got.stdout).id).toBe(link.id)
    const file = join(cli.configDir, "body.json")
    writeFileSync(file, JSON.stringify({ monto: 3, concepto: "Desde archivo" }))
    const fromFile = await cli.run(["post", "/switch/v1/links", "--data", `@${file}`])
    expect(JSON.parse(fromFile.stdout).concepto).toBe("Desde archivo")
  })

  it("print the API's error for people and exit 1", async () => {
    const result = await cli.run(["post", "/switch/v1/links", "--data", '{"monto":1}'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("Los datos enviados no son válidos")
    expect(result.stderr).toContain("(validation, HTTP 400)")
  })
})

describe("fixtures", () => {
  it("run the calls in order, each able to use an earlier answer", async () => {
    const file = join(cli.configDir, "fixtures.json")
    writeFileSync(
      file,
      JSON.stringify({
        fixtures: [
          {
            name: "link1",
            path: "/switch/v1/links",
            method: "post",
            params: { monto: 10, concepto: "Fixture" }
          },
          { name: "cancel", path: "/switch/v1/links/${link1:id}/cancelar", method: "post" },
          { name: "again", path: "/switch/v1/links/${link1:id}" },
          {
            path: "/switch/v1/links",
            method: "post",
            params: { monto: "${link1:monto}", concepto: "Copia de ${link1:id}" }
          }
        ]
      })
    )
    const results = await cli.json(["fixtures", file])
    expect(results.map((r: { status: number }) => r.status)).toEqual([201, 200, 200, 201])
    expect(results[2].body.estado).toBe("cancelado")
    expect(results[3].body.monto).toBe(10)
    expect(results[3].body.concepto).toBe(`Copia de ${results[0].body.id}`)
  })

  it("refuse a reference to a call that did not come before, sending nothing after it", async () => {
    const file = join(cli.configDir, "bad-fixtures.json")
    writeFileSync(file, JSON.stringify({ fixtures: [{ path: "/switch/v1/links/${nada:id}" }] }))
    const result = await cli.run(["fixtures", file])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('"nada" no es una llamada anterior')
  })
})

describe("logs tail", () => {
  it("prints the server's request log for the key, oldest first, then only new requests", async () => {
    const own = await cli.run(["get", "/switch/v1/links?limit=1"])
    expect(own.code, own.stderr).toBe(0)
    const run = spawnCli(["--json", "logs", "tail", "--interval", "1"], cli.env)
    const entries = () =>
      run
        .stdout()
        .split("\n")
        .filter(Boolean)
        .map(
          (line) => JSON.parse(line) as { path: string; status: number; method: string; request_id: string }
        )
    try {
      await until(
        () => entries().some((e) => e.path === "/switch/v1/links" && e.method === "GET"),
        "the first entries"
      )
      // A request made now shows up after the ones already printed, once.
      const missing = `/switch/v1/links/${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}`
      expect((await cli.run(["get", missing])).code).toBe(1)
      await until(() => entries().some((e) => e.path === missing), "the new request")
      await new Promise((r) => setTimeout(r, 1500))
      const seen = entries()
      const mine = seen.filter((e) => e.path === missing)
      expect(mine).toHaveLength(1)
      expect(mine[0]).toMatchObject({ method: "GET", status: 404 })
      expect(seen.indexOf(mine[0]!)).toBe(seen.length - 1)
      expect(JSON.stringify(seen)).not.toContain(stack.demoKey.split(":")[1]!)
    } finally {
      await run.stop()
    }
  })

  it("says clearly when the server has no request log", async () => {
    const { url, server } = await serve(() => [404, { error: "not_found" }])
    try {
      const result = await cli.run(["logs", "tail"], { env: { SWITCH_BASE_URL: url } })
      expect(result.code).toBe(1)
      expect(result.stderr).toContain("no ofrece el registro de solicitudes")
    } finally {
      server.close()
    }
  })
})

describe("events resend", () => {
  it("sends a past notice again to the merchant's webhooks that receive it, through the server", async () => {
    const m = await merchantWithLiveKey(stack, `reenvio${Date.now().toString(36)}`)
    const received: Array<{ body: string; headers: Record<string, unknown> }> = []
    const { url, server } = await serve((_method, _url, body, headers) => {
      received.push({ body, headers })
      return [200, {}]
    })
    try {
      const hook = await fetch(`${stack.url}/switch/v1/webhooks`, {
        method: "POST",
        headers: { "x-switch-key": m.liveKey, "content-type": "application/json" },
        body: JSON.stringify({ url: `${url}/webhook`, eventos: ["link.pagado"] })
      })
      expect(hook.status).toBe(201)
      const { secret } = (await hook.json()) as { secret: string }
      const env = { env: { SWITCH_KEY: m.testKey } }
      expect((await cli.run(["trigger", "link.pagado"], env)).code).toBe(0)
      await until(() => received.length === 1, "the first delivery")
      const notice = JSON.parse(received[0]!.body) as { id: string }
      const result = await cli.run(["--json", "events", "resend", notice.id], env)
      expect(result.code, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ evento_id: notice.id })])
      await until(() => received.length === 2, "the resent delivery")
      expect(received[1]!.body).toBe(received[0]!.body)
      const event = await Switch.webhooks.verify(
        received[1]!.body,
        received[1]!.headers as Record<string, string>,
        secret
      )
      expect(event.id).toBe(notice.id)
      const missing = await cli.run(["events", "resend", "evt_00000000-0000-0000-0000-000000000000"], env)
      expect(missing.code).toBe(1)
    } finally {
      server.close()
    }
  })

  it("sends a past notice again to a URL, signed as listen signs it", async () => {
    const trigger = await cli.run(["trigger", "link.pagado"])
    expect(trigger.code, trigger.stderr).toBe(0)
    const eventos = JSON.parse((await cli.run(["get", "/switch/v1/eventos?limit=5"])).stdout)
    const list = Array.isArray(eventos) ? eventos : eventos.data
    const pagado = list.find((e: { evento: string }) => e.evento === "link.pagado")
    expect(pagado).toBeDefined()
    const secret = (await cli.run(["listen", "--print-secret"])).stdout.trim()
    const received: Array<{ body: string; headers: Record<string, unknown> }> = []
    const { url, server } = await serve((_method, _url, body, headers) => {
      received.push({ body, headers })
      return [200, {}]
    })
    try {
      const result = await cli.run(["events", "resend", pagado.id, "--forward-to", `${url}/webhook`])
      expect(result.code, result.stderr).toBe(0)
      expect(received).toHaveLength(1)
      const event = await Switch.webhooks.verify(
        received[0]!.body,
        received[0]!.headers as Record<string, string>,
        secret
      )
      expect(event.id).toBe(pagado.id)
      const missing = await cli.run(["events", "resend", "evt_no_existe", "--forward-to", url])
      expect(missing.code).toBe(1)
    } finally {
      server.close()
    }
  })
})

describe("--json", () => {
  it("makes listen's start lines JSON too", async () => {
    const run = spawnCli(["--json", "listen"], { ...cli.env })
    try {
      await until(() => run.stderr().includes("listo"), "listen ready")
      for (const line of run.stderr().split("\n").filter(Boolean))
        expect(() => JSON.parse(line), line).not.toThrow()
      const ready = run
        .stderr()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((line) => line.estado === "listo")
      expect(ready.secret).toMatch(/^whsec_/)
    } finally {
      await run.stop()
    }
  })
})

describe("completion", () => {
  it("bash completes the new commands", () => {
    const complete = (words: string) =>
      execFileSync(
        "bash",
        [
          "-c",
          `source <('${process.execPath}' '${BIN}' completion bash); COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _switch; echo "\${COMPREPLY[*]}"`
        ],
        { encoding: "utf8" }
      )
    expect(complete('switch ""').trim().split(" ")).toEqual(
      expect.arrayContaining(["get", "post", "fixtures", "logs", "events", "completion"])
    )
    expect(complete('switch logs ""')).toContain("tail")
    expect(complete('switch events ""')).toContain("resend")
    expect(complete("switch fix")).toBe("fixtures\n")
  })

  it("zsh and fish scripts cover every command", async () => {
    for (const shell of ["zsh", "fish"]) {
      const result = await cli.run(["completion", shell])
      expect(result.code).toBe(0)
      for (const path of ['"logs"', '"logs tail"', '"events resend"', '"fixtures"', '"get"', '"post"']) {
        expect(result.stdout, `${shell} ${path}`).toContain(path)
      }
    }
    expect((await cli.run(["completion", "fish"])).stdout).toContain("complete -c switch")
  })
})

describe("login on a terminal", () => {
  it.skipIf(!hasTmux)(
    "does not show the key as it is typed (tmux)",
    async () => {
      const key = "tmux:sk_test_secretoquenosedebever123"
      const script = join(cli.configDir, "login.sh")
      const done = join(cli.configDir, "login-done")
      writeFileSync(
        script,
        [
          "#!/bin/sh",
          `export SWITCH_CONFIG_DIR='${cli.configDir}/tty' SWITCH_BASE_URL='${stack.url}'`,
          `'${process.execPath}' '${BIN}' login --no-verify --profile tty`,
          `echo "exit=$?" > '${done}'`,
          "sleep 60"
        ].join("\n"),
        { mode: 0o755 }
      )
      const session = `switch-login-${process.pid}`
      execFileSync("tmux", ["new-session", "-d", "-s", session, "-x", "160", "-y", "20", script])
      try {
        const screen = () => execFileSync("tmux", ["capture-pane", "-p", "-t", session], { encoding: "utf8" })
        await until(() => screen().includes("Llave"), "the prompt")
        execFileSync("tmux", ["send-keys", "-t", session, "-l", key])
        await until(() => screen().includes("*".repeat(key.length)), "the stars")
        expect(screen()).not.toContain("sk_test_secreto")
        execFileSync("tmux", ["send-keys", "-t", session, "Enter"])
        await until(() => {
          try {
            return readFileSync(done, "utf8").includes("exit=")
          } catch {
            return false
          }
        }, "login to end")
        expect(readFileSync(done, "utf8").trim()).toBe("exit=0")
        expect(screen()).not.toContain("sk_test_secreto")
        const saved = JSON.parse(readFileSync(join(cli.configDir, "tty", "config.json"), "utf8"))
        expect(saved.profiles.tty.key).toBe(key)
      } finally {
        execFileSync("tmux", ["kill-session", "-t", session])
      }
    },
    60_000
  )
})
