/**
 * Every `switch` command, run as the built binary against the real server: results, `--json`,
 * exit codes (0 success, 1 API error with SPEC's code and detail, 2 usage error) and the
 * config file.
 */

import { readFileSync, statSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, type Stack, startStack } from "../support/stack.js"
import { makeCli } from "./support.js"

let stack: Stack
let cli: ReturnType<typeof makeCli>
let receiver: Server
let receiverUrl: string

beforeAll(async () => {
  stack = await startStack({ SWITCH_WEBHOOK_ALLOW_PRIVATE: "1", SWITCH_API_POR_MINUTO: "100000" })
  cli = makeCli(stack.url)
  receiver = createServer((req, res) => {
    req.resume()
    req.on("end", () => res.end("ok"))
  })
  await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", () => done()))
  const address = receiver.address()
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hook`
}, 240_000)
afterAll(async () => {
  receiver?.close()
  cli?.cleanup()
  await stack?.stop()
})

const ESC = "\u001b["

describe("login and profiles", () => {
  it("login --key saves the key in config.json with mode 0600 and whoami shows merchant and mode", async () => {
    const login = await cli.run(["login", "--key", stack.demoKey])
    expect(login.code).toBe(0)
    expect(login.stdout).toContain("demo")
    const file = join(cli.configDir, "config.json")
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, "utf8")).profiles.default.key).toBe(stack.demoKey)

    const who = await cli.json(["whoami"])
    expect(who).toMatchObject({ comercio: "demo", mode: "test", origen_llave: "perfil", perfil: "default" })
    expect(who.llave).not.toContain(stack.demoKey.split(":")[1])
    const human = await cli.run(["whoami"])
    expect(human.stdout).toMatch(/comercio\s+demo/)
    expect(human.stdout).not.toContain(ESC)
  })

  it("login reads the key from stdin, so it stays out of the shell history", async () => {
    const result = await cli.run(["login", "--key-stdin", "--profile", "ci"], { input: `${stack.demoKey}\n` })
    expect(result.code).toBe(0)
    const profiles = await cli.json(["profiles", "list"])
    expect(profiles.map((p: any) => p.perfil).sort()).toEqual(["ci", "default"])
    expect(JSON.stringify(profiles)).not.toContain(stack.demoKey)
  })

  it("a wrong key is refused at login (exit 1, unauthorized) and nothing is saved", async () => {
    const result = await cli.run(["login", "--key", "demo:sk_test_nope", "--profile", "malo"])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("unauthorized")
    const profiles = await cli.json(["profiles", "list"])
    expect(profiles.map((p: any) => p.perfil)).not.toContain("malo")
  })

  it("--key and SWITCH_KEY override the profile; a malformed key is a usage error", async () => {
    const viaEnv = await cli.json(["whoami"], { env: { SWITCH_KEY: stack.demoKey } })
    expect(viaEnv.origen_llave).toBe("SWITCH_KEY")
    const viaFlag = await cli.json(["whoami", "--key", stack.demoKey], { env: { SWITCH_KEY: "x:sk_test_y" } })
    expect(viaFlag.origen_llave).toBe("--key")
    const bad = await cli.run(["whoami"], { env: { SWITCH_KEY: "no-es-una-llave" } })
    expect(bad.code).toBe(2)
  })

  it("--base-url overrides SWITCH_BASE_URL", async () => {
    const result = await cli.run(["whoami", "--base-url", "http://127.0.0.1:9"], { env: {} })
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/connection_error|127\.0\.0\.1:9/)
  })

  it("without any key a command is a usage error (exit 2) that says how to log in", async () => {
    const other = makeCli(stack.url)
    const result = await other.run(["links", "list"])
    other.cleanup()
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("switch login")
  })

  it("XDG_CONFIG_HOME is honoured when SWITCH_CONFIG_DIR is not set", async () => {
    const xdg = makeCli(stack.url)
    const result = await xdg.run(["login", "--key", stack.demoKey], {
      env: { SWITCH_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg.configDir }
    })
    expect(result.code).toBe(0)
    expect(statSync(join(xdg.configDir, "switch", "config.json")).mode & 0o777).toBe(0o600)
    xdg.cleanup()
  })
})

describe("links", () => {
  let linkId: string

  it("create prints id and url; --json returns the link with metadata", async () => {
    const human = await cli.run(["links", "create", "--monto", "150,50", "--concepto", "Pedido CLI 1"])
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/id\s+[0-9a-f-]{36}/)
    expect(human.stdout).toContain(`${stack.url}/l/`)

    const link = await cli.json([
      "links",
      "create",
      "--monto",
      "99.99",
      "--concepto",
      "Pedido CLI 2",
      "--expira-horas",
      "2",
      "--metadata",
      "pedido=42",
      "--metadata",
      "canal=cli",
      "--success-url",
      "https://tienda.example/ok",
      "--idempotency-key",
      "cli-test-link-2"
    ])
    expect(link).toMatchObject({
      monto: 99.99,
      estado: "pendiente",
      metadata: { pedido: "42", canal: "cli" }
    })
    linkId = link.id
    const again = await cli.json([
      "links",
      "create",
      "--monto",
      "99.99",
      "--concepto",
      "Pedido CLI 2",
      "--idempotency-key",
      "cli-test-link-2"
    ])
    expect(again.id).toBe(linkId)
    expect(again.idempotent_replay).toBe(true)
  })

  it("create --qr draws a terminal QR code and shows the URL of the code's PNG", async () => {
    const result = await cli.run(["links", "create", "--monto", "10", "--concepto", "QR", "--qr"])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/[▄▀█]{5,}/)
    // Its stdout is a pipe: no colour, so not one escape code (NO_COLOR and --no-color alike).
    expect(result.stdout).not.toContain("\u001b[")
    const url = /^url +(\S+)$/m.exec(result.stdout)?.[1]
    expect(url).toMatch(/\/l\/[0-9a-f-]{36}$/)
    expect(result.stdout).toMatch(new RegExp(`^qr +${url}/qr\\.png$`, "m"))

    const link = await cli.json(["links", "create", "--monto", "11", "--concepto", "QR", "--qr"])
    expect(link.qr_png).toBe(`${link.url}/qr.png`)
    expect(link.qr_terminal).toMatch(/[▄▀█]{5,}/)
    const shown = await cli.run(["links", "get", link.id])
    expect(shown.stdout).toMatch(new RegExp(`^qr +${link.url}/qr\\.png$`, "m"))
    const png = await fetch(`${stack.url}/l/${link.id}/qr.png`)
    expect(png.status).toBe(200)
    expect(png.headers.get("content-type")).toBe("image/png")
  })

  it("list shows a table, filters, honours --limit and walks every page with --all", async () => {
    const table = await cli.run(["links", "list", "--q", "Pedido CLI"])
    expect(table.code).toBe(0)
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+ESTADO\s+MONTO\s+CONCEPTO/)
    expect(table.stdout).toContain("Pedido CLI 1")

    const filtered = await cli.json(["links", "list", "--q", "Pedido CLI", "--min", "100", "--max", "200"])
    expect(filtered.map((l: any) => l.concepto)).toEqual(["Pedido CLI 1"])
    expect(await cli.json(["links", "list", "--estado", "pagado", "--q", "Pedido CLI"])).toEqual([])
    expect(await cli.json(["links", "list", "--limit", "1"])).toHaveLength(1)
    const since = await cli.json(["links", "list", "--desde", new Date(Date.now() + 3_600_000).toISOString()])
    expect(since).toEqual([])

    for (let i = 0; i < 3; i++)
      await cli.json(["links", "create", "--monto", "1", "--concepto", `Pagina ${i}`])
    // --all walks pages; the page size is the server's maximum, so compare with --limit.
    const all = await cli.json(["links", "list", "--all", "--q", "Pagina"])
    expect(all).toHaveLength(3)
  })

  it("get shows a link; an unknown id exits 1 with SPEC's not_found", async () => {
    const link = await cli.json(["links", "get", linkId])
    expect(link.id).toBe(linkId)
    const human = await cli.run(["links", "get", linkId])
    expect(human.stdout).toContain("Pedido CLI 2")

    const missing = await cli.run(["links", "get", "00000000-0000-0000-0000-000000000000"])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("not_found")
    const missingJson = await cli.run(["--json", "links", "get", "00000000-0000-0000-0000-000000000000"])
    expect(JSON.parse(missingJson.stderr)).toMatchObject({ error: "not_found", status: 404 })
  })

  it("cancel cancels a pending link; cancelling it again exits 1 with no_cancelable and its estado", async () => {
    const ok = await cli.run(["links", "cancel", linkId])
    expect(ok.code).toBe(0)
    const again = await cli.run(["links", "cancel", linkId])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("no_cancelable")
    expect(again.stderr).toContain("cancelado")
  })

  it("simulate pays a test link; a bad outcome is a usage error", async () => {
    const link = await cli.json(["links", "create", "--monto", "25", "--concepto", "Simular"])
    const result = await cli.json(["links", "simulate", link.id, "pagado"])
    expect(result).toMatchObject({ estado: "pagado", simulado: true })
    const paid = await cli.json(["links", "get", link.id])
    expect(paid.codigo_verificacion).toMatch(/^SW-/)

    const again = await cli.run(["links", "simulate", link.id, "pagado"])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("no_simulable")
    expect((await cli.run(["links", "simulate", link.id, "quizas"])).code).toBe(2)
  })

  it("a bad flag value, an unknown option and a missing required option exit 2 without calling the server", async () => {
    expect((await cli.run(["links", "create", "--monto", "abc", "--concepto", "x"])).code).toBe(2)
    expect((await cli.run(["links", "create", "--monto", "1"])).code).toBe(2)
    expect((await cli.run(["links", "list", "--nope"])).code).toBe(2)
    expect((await cli.run(["no-existe"])).code).toBe(2)
    expect(
      (await cli.run(["links", "create", "--monto", "1", "--concepto", "x", "--expira-horas", "0"])).code
    ).toBe(2)
    // With --json, commander's own usage errors are JSON too, like every other error.
    for (const argv of [
      ["--json", "links", "create", "--monto", "1", "--concepto", "x", "--expira-horas", "0"],
      ["--json", "links", "bogus"],
      ["--json", "--bogus"],
      ["links", "list", "--nope", "--json"]
    ]) {
      const result = await cli.run(argv)
      expect(result.code).toBe(2)
      const error = JSON.parse(result.stderr)
      expect(error.error).toBe("uso_invalido")
      expect(typeof error.detail).toBe("string")
      expect(error.detail.length).toBeGreaterThan(0)
    }
  })

  it("a server validation error exits 1 and prints SPEC's code and field detail", async () => {
    const result = await cli.run(["links", "create", "--monto", "1", "--concepto", "x".repeat(141)])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("validation")
    expect(result.stderr).toContain("concepto")
  })
})

describe("receipts, transactions, config, customers", () => {
  it("trigger link.pagado pays a test link; verify confirms its receipt and refuses an unknown one", async () => {
    const triggered = await cli.json(["trigger", "link.pagado"])
    expect(triggered).toMatchObject({ evento: "link.pagado", estado: "pagado" })
    const link = await cli.json(["links", "get", triggered.link_id])
    const valid = await cli.json(["verify", link.codigo_verificacion], { env: { SWITCH_KEY: undefined } })
    expect(valid).toMatchObject({ valido: true, prueba: true, monto: 100 })
    const human = await cli.run(["verify", link.codigo_verificacion])
    expect(human.stdout).toContain("Válido")

    const unknown = await cli.run(["verify", "SW-00000-00000"])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("no_encontrado")
    expect(unknown.stderr).toContain("No existe un comprobante con ese código (no_encontrado, HTTP 404)")
  })

  it("trigger refuses events a test link cannot produce (exit 2)", async () => {
    const result = await cli.run(["trigger", "link.devuelto"])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("portal")
  })

  it("transacciones list shows the paid links' transactions", async () => {
    const rows = await cli.json(["transacciones", "list", "--limit", "5"])
    expect(rows.length).toBeGreaterThan(0)
    expect(rows[0]).toHaveProperty("operacion")
    const table = await cli.run(["transacciones", "list"])
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+OPERACION\s+ESTADO/)
  })

  it("config shows the merchant's read-only configuration", async () => {
    const view = await cli.json(["config"])
    expect(view).toMatchObject({ comercio: "demo", mode: "test" })
    const human = await cli.run(["config"])
    expect(human.stdout).toMatch(/kyc_tier\s+\d/)
  })

  it("clientes list answers a list", async () => {
    expect(Array.isArray(await cli.json(["clientes", "list"]))).toBe(true)
    expect((await cli.run(["clientes", "list"])).code).toBe(0)
  })
})

describe("register, admin and webhooks", () => {
  it("register creates a merchant, --login saves its test key; admin approve --llave gives a live key", async () => {
    const registered = await cli.json(
      [
        "register",
        "--codigo",
        "cli_tienda",
        "--nombre",
        "Tienda CLI",
        "--identificacion",
        "J-07013380-5",
        "--email",
        "cli@example.com",
        "--login",
        "--profile",
        "tienda"
      ],
      {}
    )
    expect(registered).toMatchObject({ codigo: "cli_tienda", estado: "pendiente", perfil: "tienda" })
    expect(registered.key).toMatch(/^cli_tienda:sk_test_/)
    const who = await cli.json(["whoami", "--profile", "tienda"])
    expect(who.comercio).toBe("cli_tienda")

    const duplicate = await cli.run([
      "register",
      "--codigo",
      "cli_tienda",
      "--nombre",
      "Otra",
      "--identificacion",
      "J-07013380-5",
      "--email",
      "x@example.com"
    ])
    expect(duplicate.code).toBe(1)

    const noToken = await cli.run(["admin", "approve", "cli_tienda"], {
      env: { SWITCH_ADMIN_TOKEN: undefined }
    })
    expect(noToken.code).toBe(2)
    const wrongToken = await cli.run(["admin", "approve", "cli_tienda", "--admin-token", "malo"])
    expect(wrongToken.code).toBe(1)

    // Approval needs the settlement account in the merchant's own name.
    const withoutAccount = await cli.run(["admin", "approve", "cli_tienda", "--json"], {
      env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN }
    })
    expect(withoutAccount.code).toBe(1)
    expect(withoutAccount.stdout + withoutAccount.stderr).toContain("cuenta_liquidacion_requerida")
    const cuenta = JSON.stringify({
      tipo: "cuenta",
      valor: "01050194651194079423",
      banco: "0105",
      identificacion: "J-07013380-5",
      nombre: "Tienda CLI"
    })
    // The live key only on the explicit ask (--llave).
    const approved = await cli.json(["admin", "approve", "cli_tienda", "--cuenta", cuenta, "--llave"], {
      env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN }
    })
    expect(approved).toMatchObject({ codigo: "cli_tienda", estado: "activo" })
    expect(approved.api_key).toMatch(/^sk_live_/)
    const liveKey = `cli_tienda:${approved.api_key}`
    // Approving again changes nothing and shows no new key.
    const again = await cli.json(["admin", "approve", "cli_tienda"], {
      env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN }
    })
    expect(again).toMatchObject({ codigo: "cli_tienda", estado: "activo", ya_aprobado: true })
    expect(again.api_key).toBeUndefined()
    const reviewed = await cli.json(["admin", "review", "cli_tienda"], {
      env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN }
    })
    expect(reviewed).toMatchObject({ codigo: "cli_tienda", revisado: true })

    const set = await cli.json(
      ["admin", "set", "cli_tienda", "comision_pct=1.5", "tope_diario=300USD", "liquidacion_inmediata=true"],
      { env: { SWITCH_ADMIN_TOKEN: ADMIN_TOKEN } }
    )
    expect(set).toMatchObject({
      comision_pct: 1.5,
      liquidacion_inmediata: true,
      tope_diario: { monto: 300, moneda: "USD" }
    })
    const badField = await cli.run(["admin", "set", "cli_tienda", "color=rojo", "--admin-token", ADMIN_TOKEN])
    expect(badField.code).toBe(2)

    // webhooks: create needs a live key; list and deliveries work with the test key too.
    const refused = await cli.run(["webhooks", "create", "--url", receiverUrl, "--profile", "tienda"])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("requiere_llave_live")
    const created = await cli.json([
      "webhooks",
      "create",
      "--url",
      receiverUrl,
      "--eventos",
      "link.pagado,link.acreditado",
      "--key",
      liveKey
    ])
    expect(created.secret).toMatch(/^whsec_/)
    expect(created.eventos).toEqual(["link.pagado", "link.acreditado"])
    const listed = await cli.json(["webhooks", "list", "--profile", "tienda"])
    expect(listed.map((w: any) => w.id)).toContain(created.id)
    expect(JSON.stringify(listed)).not.toContain(created.secret)
    expect((await cli.run(["webhooks", "create", "--url", receiverUrl, "--eventos", "link.nada"])).code).toBe(
      2
    )

    await cli.json(["trigger", "link.pagado", "--profile", "tienda"])
    // Immediate settlement is on, so link.acreditado follows link.pagado (newest first).
    const pagado = () => deliveries.find((d) => d.evento === "link.pagado")
    let deliveries: Array<any> = []
    for (let i = 0; i < 50 && pagado() === undefined; i++) {
      deliveries = await cli.json(["webhooks", "deliveries", created.id, "--profile", "tienda"])
      if (pagado() === undefined) await new Promise((r) => setTimeout(r, 200))
    }
    expect(pagado()).toMatchObject({ evento: "link.pagado", mode: "test" })
    const table = await cli.run(["webhooks", "deliveries", created.id, "--profile", "tienda"])
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+EVENTO\s+ESTADO/)

    const suspended = await cli.json(["admin", "suspend", "cli_tienda", "--admin-token", ADMIN_TOKEN])
    expect(suspended.estado).toBe("suspendido")
    const blocked = await cli.run([
      "links",
      "create",
      "--monto",
      "1",
      "--concepto",
      "x",
      "--profile",
      "tienda"
    ])
    expect(blocked.code).toBe(1)
    expect(blocked.stderr).toContain("comercio_suspendido")
  })
})

describe("lotes list, get and cancel", () => {
  it("lists batches, shows one with its links and cancels its open part", async () => {
    const csv = join(cli.configDir, "pequeño.csv")
    const { writeFileSync } = await import("node:fs")
    writeFileSync(csv, "monto,concepto,referencia_externa\n10,Uno,R1\n20,Dos,R2\n")
    const created = await cli.json(["lotes", "create", "--csv", csv, "--nombre", "Pequeño"])
    const id = created.lotes[0].id
    const list = await cli.json(["lotes", "list"])
    expect(list.map((l: any) => l.id)).toContain(id)
    const lote = await cli.json(["lotes", "get", id])
    expect(lote.items.map((i: any) => i.referencia_externa)).toEqual(["R1", "R2"])
    const human = await cli.run(["lotes", "get", id])
    expect(human.stdout).toContain("R2")
    const cancelled = await cli.json(["lotes", "cancel", id])
    expect(cancelled).toMatchObject({ cancelados: 2, no_cancelables: 0 })
    expect((await cli.run(["lotes", "list"])).stdout.split("\n")[0]).toMatch(/^ID\s+NOMBRE/)
  })
})

describe("output and completion", () => {
  it("--json prints parseable JSON for every read command and NO_COLOR or a pipe means no colour", async () => {
    for (const args of [["whoami"], ["config"], ["links", "list"], ["lotes", "list"], ["webhooks", "list"]]) {
      const result = await cli.run(["--json", ...args])
      expect(result.code, args.join(" ")).toBe(0)
      expect(() => JSON.parse(result.stdout)).not.toThrow()
    }
    const plain = await cli.run(["links", "list"], { env: { NO_COLOR: "1" } })
    expect(plain.stdout).not.toContain(ESC)
  })

  it("completion bash, zsh and fish name the commands and their options; another shell exits 2", async () => {
    const bash = await cli.run(["completion", "bash"])
    expect(bash.code).toBe(0)
    expect(bash.stdout).toContain("complete -o default -F _switch switch")
    expect(bash.stdout).toMatch(/"links create"\) echo "[^"]*--monto/)
    const zsh = await cli.run(["completion", "zsh"])
    expect(zsh.stdout).toContain("#compdef switch")
    expect(zsh.stdout).toContain('"lotes"')
    const fish = await cli.run(["completion", "fish"])
    expect(fish.code).toBe(0)
    expect(fish.stdout).toMatch(/case "links create"\n\s+echo "[^"]*--monto/)
    expect((await cli.run(["completion", "powershell"])).code).toBe(2)
  })

  it("--help and --version exit 0", async () => {
    expect((await cli.run(["--help"])).code).toBe(0)
    expect((await cli.run(["links", "create", "--help"])).stdout).toContain("--idempotency-key")
    expect((await cli.run(["--version"])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it("logout removes the profile's key", async () => {
    const result = await cli.json(["logout", "--profile", "ci"])
    expect(result).toMatchObject({ perfil: "ci", borrado: true })
    const profiles = await cli.json(["profiles", "list"])
    expect(profiles.map((p: any) => p.perfil)).not.toContain("ci")
  })
})
