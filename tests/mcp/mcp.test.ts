/**
 * The MCP server with the official MCP client (Client + StreamableHTTPClientTransport)
 * against the real API: tools, schemas, annotations, success and error paths, keys and
 * tenant/mode isolation.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { resolve } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, freePort, listeningOn, merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"

let stack: Stack
let mcp: ChildProcess
let mcpUrl: string
let mcpPort: number
let mcpOutput = ""

/** The built MCP server against `apiUrl` on a free port, once its health route answers. */
const startMcp = async (apiUrl: string) => {
  const port = await freePort()
  const child = spawn(process.execPath, [resolve(__dirname, "../../apps/mcp/dist/main.js")], {
    env: { ...process.env, HOST: "", MCP_PORT: String(port), SWITCH_API_URL: apiUrl },
    stdio: ["ignore", "pipe", "pipe"]
  })
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false
      )
    )
      break
    await new Promise((r) => setTimeout(r, 100))
  }
  return { child, port, url: `http://127.0.0.1:${port}/mcp` }
}

beforeAll(async () => {
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000" })
  const started = await startMcp(stack.url)
  mcp = started.child
  mcpUrl = started.url
  mcpPort = started.port
  mcp.stdout?.on("data", (c) => {
    mcpOutput += c
  })
  mcp.stderr?.on("data", (c) => {
    mcpOutput += c
  })
})
afterAll(async () => {
  mcp?.kill("SIGTERM")
  await stack?.stop()
})

const connect = async (key?: string) => {
  const client = new Client({ name: "prueba", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: key === undefined ? {} : { "x-switch-key": key } }
  })
  await client.connect(transport)
  return client
}

const text = (result: any) => (result.content ?? []).map((c: any) => c.text).join(" ")

describe("MCP tool server", () => {
  it("listens on 127.0.0.1 only unless HOST says otherwise, like the API it fronts", () => {
    expect(listeningOn(mcpPort)).toEqual(["127.0.0.1"])
    expect(listeningOn(Number(new URL(stack.url).port))).toEqual(["127.0.0.1"])
  })

  it("lists the tools with Spanish and English descriptions, schemas and annotations", async () => {
    const client = await connect(stack.demoKey)
    const { tools } = await client.listTools()
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
    expect(Object.keys(byName).sort()).toEqual(
      [
        "cancelar_link",
        "consultar_estado",
        "crear_link_cobro",
        "listar_bancos",
        "listar_links",
        "ver_link",
        "ver_liquidaciones"
      ].sort()
    )
    for (const tool of tools) {
      expect(tool.description).toMatch(/\//)
      expect(tool.outputSchema).toBeDefined()
      expect(tool.annotations).toBeDefined()
    }
    expect(byName.crear_link_cobro?.inputSchema.required).toEqual(
      expect.arrayContaining(["monto", "concepto"])
    )
    expect((byName.crear_link_cobro?.inputSchema.properties as any)?.concepto?.maxLength).toBe(140)
    expect(byName.listar_links?.annotations?.readOnlyHint).toBe(true)
    expect(byName.cancelar_link?.annotations?.destructiveHint).toBe(true)
    expect(byName.crear_link_cobro?.annotations?.readOnlyHint).toBe(false)
    await client.close()
  })

  it("announces only what it serves: each capability answers, others are -32601, no list_changed promised", async () => {
    const client = await connect(stack.demoKey)
    // Every capability a server may announce, with a request that only it answers.
    const requests: Record<string, ReadonlyArray<() => Promise<unknown>>> = {
      tools: [() => client.listTools()],
      resources: [() => client.listResources(), () => client.listResourceTemplates()],
      prompts: [() => client.listPrompts()],
      completions: [
        () => client.complete({ ref: { type: "ref/prompt", name: "x" }, argument: { name: "a", value: "" } })
      ],
      logging: [() => client.setLoggingLevel("info")]
    }
    const capabilities = (client.getServerCapabilities() ?? {}) as Record<string, any>
    expect(Object.keys(capabilities).filter((name) => !(name in requests))).toEqual([])
    for (const [name, sends] of Object.entries(requests))
      for (const send of sends) {
        const outcome = await send().then(
          () => "answered",
          (error: any) => (error?.code === -32601 ? "method not found" : `error ${error?.code}`)
        )
        expect(outcome, name).toBe(capabilities[name] === undefined ? "method not found" : "answered")
      }
    expect(Object.keys(capabilities)).toEqual(["tools"])
    // Stateless: no stream stays open to carry a notification, so none is promised.
    for (const [name, announced] of Object.entries(capabilities)) {
      expect(announced?.listChanged, name).not.toBe(true)
      expect(announced?.subscribe, name).not.toBe(true)
    }
    await client.close()
  })

  it("creates, lists, shows and cancels a link, and reports SPEC's code on errors", async () => {
    const client = await connect(stack.demoKey)
    const created: any = await client.callTool({
      name: "crear_link_cobro",
      arguments: { monto: 150.5, concepto: "Por MCP", expira_horas: 2 }
    })
    expect(created.isError).toBeFalsy()
    const link = created.structuredContent
    expect(link).toMatchObject({ estado: "pendiente" })
    expect(link.url).toContain(`/l/${link.id}`)
    expect(link.qr_png).toBe(`${link.url}/qr.png`)
    const listed: any = await client.callTool({ name: "listar_links", arguments: { q: "MCP" } })
    expect(listed.structuredContent.links.map((l: any) => l.id)).toContain(link.id)
    expect(listed.structuredContent.links.find((l: any) => l.id === link.id).qr_png).toBe(link.qr_png)
    const shown: any = await client.callTool({ name: "ver_link", arguments: { id: link.id } })
    expect(shown.structuredContent).toMatchObject({
      id: link.id,
      monto: 150.5,
      mode: "test",
      qr_png: link.qr_png
    })
    const cancelled: any = await client.callTool({ name: "cancelar_link", arguments: { id: link.id } })
    expect(cancelled.structuredContent).toEqual({ id: link.id, estado: "cancelado" })
    const again: any = await client.callTool({ name: "cancelar_link", arguments: { id: link.id } })
    expect(again.isError).toBe(true)
    expect(text(again)).toContain("no_cancelable")
    const missing: any = await client.callTool({
      name: "ver_link",
      arguments: { id: "00000000-0000-0000-0000-000000000000" }
    })
    expect(missing.isError).toBe(true)
    expect(text(missing)).toContain("not_found")
    const estado: any = await client.callTool({ name: "consultar_estado", arguments: { id: "no-existe" } })
    expect(estado.isError).toBe(true)
    const bancos: any = await client.callTool({ name: "listar_bancos", arguments: {} })
    expect(bancos.structuredContent.bancos).toContainEqual({ codigo: "0134", nombre: "Banesco" })
    const liquidaciones: any = await client.callTool({ name: "ver_liquidaciones", arguments: {} })
    expect(liquidaciones.isError).toBeFalsy()
    expect(Array.isArray(liquidaciones.structuredContent.liquidaciones)).toBe(true)
    await client.close()
  })

  it("refuses invalid arguments without calling the API", async () => {
    const client = await connect(stack.demoKey)
    const before = (await call(stack.url, "GET", "/switch/v1/links?limit=200", { key: stack.demoKey })).body
      .length
    const outcome = (args: Record<string, unknown>) =>
      client.callTool({ name: "crear_link_cobro", arguments: args }).then(
        (r: any) => (r.isError ? "error" : "ok"),
        () => "error"
      )
    expect(await outcome({ monto: -1, concepto: "" })).toBe("error")
    // An argument the tool does not take is refused, not dropped: no link in VES without the
    // asked-for currency, no link without the asked-for (misnamed) return URL.
    expect(await outcome({ monto: 1, concepto: "x", moneda: "USD" })).toBe("error")
    expect(await outcome({ monto: 1, concepto: "x", url_retorno: "https://tienda.example/ok" })).toBe("error")
    expect(
      await client.callTool({ name: "ver_link", arguments: { id: "x", mode: "live" } }).then(
        (r: any) => r.isError === true,
        () => true
      )
    ).toBe(true)
    const after = (await call(stack.url, "GET", "/switch/v1/links?limit=200", { key: stack.demoKey })).body
      .length
    expect(after).toBe(before)
    await client.close()
  })

  it("refuses a missing or invalid key at connection, pointing at the sign-in, and never logs keys", async () => {
    await expect(connect()).rejects.toThrow()
    const wrong = "demo:sk_test_ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"
    await expect(connect(wrong)).rejects.toThrow()
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } }
    }
    for (const headers of [{}, { "x-switch-key": wrong }]) {
      const reply = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers
        },
        body: JSON.stringify(initialize)
      })
      expect(reply.status).toBe(401)
      expect(reply.headers.get("www-authenticate")).toMatch(
        /^Bearer .*scope="links:read links:write transacciones:read liquidaciones:read bancos:read".*resource_metadata="http:\/\/localhost:\d+\/\.well-known\/oauth-protected-resource\/mcp"/
      )
    }
    // A key revoked after connecting: its next tool call is refused by the API.
    const created = await call(stack.url, "POST", "/switch/v1/llaves", {
      key: stack.demoKey,
      body: { label: "mcp" }
    })
    const key = `demo:${created.body.api_key}`
    const client = await connect(key)
    await call(stack.url, "POST", `/switch/v1/llaves/${created.body.id}/revocar`, { key: stack.demoKey })
    const result: any = await client.callTool({ name: "listar_links", arguments: {} })
    expect(result.isError).toBe(true)
    expect(text(result)).toContain("unauthorized")
    const banks: any = await client.callTool({ name: "listar_bancos", arguments: {} })
    expect(banks.isError).toBe(true)
    expect(text(banks)).toContain("unauthorized")
    await client.close()
    expect(mcpOutput).not.toContain(stack.demoKey.split(":")[1])
  })

  it("a key sent as a bearer token is refused at connection, told that keys go in x-switch-key", async () => {
    const secret = stack.demoKey.slice(stack.demoKey.indexOf(":") + 1)
    for (const authorization of [`Bearer ${stack.demoKey}`, `Bearer ${secret}`]) {
      const client = new Client({ name: "prueba", version: "1.0.0" })
      const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: { headers: { authorization } }
      })
      const refused = await client.connect(transport).then(
        () => "connected",
        (error: Error) => error.message
      )
      expect(refused).toContain("x-switch-key")
      expect(refused).not.toContain(secret)
      const reply = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } }
        })
      })
      expect(reply.status).toBe(401)
      expect(((await reply.json()) as any).error.message).toContain("x-switch-key")
      expect(reply.headers.get("www-authenticate")).not.toContain("invalid_token")
    }
  })

  it("says the API could not be reached when it cannot be, not an empty detail", async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`
    const lonely = await startMcp(nowhere)
    try {
      const client = new Client({ name: "prueba", version: "1.0.0" })
      await client.connect(
        new StreamableHTTPClientTransport(new URL(lonely.url), {
          requestInit: { headers: { "x-switch-key": stack.demoKey } }
        })
      )
      const result: any = await client.callTool({ name: "ver_link", arguments: { id: "x" } })
      expect(result.isError).toBe(true)
      expect(text(result)).toContain("connection_error")
      expect(text(result)).toContain(`No se pudo conectar con Switch en ${nowhere}`)
      await client.close()
    } finally {
      lonely.child.kill("SIGTERM")
    }
  })

  it("a key sees only its own merchant and mode", async () => {
    const a = await merchantWithLiveKey(stack, "mcp_a")
    const b = await merchantWithLiveKey(stack, "mcp_b")
    const clientA = await connect(a.testKey)
    const clientALive = await connect(a.liveKey)
    const clientB = await connect(b.testKey)
    const liveLink: any = await clientALive.callTool({
      name: "crear_link_cobro",
      arguments: { monto: 10, concepto: "Live" }
    })
    const testLink: any = await clientA.callTool({
      name: "crear_link_cobro",
      arguments: { monto: 10, concepto: "Test" }
    })
    const fromB: any = await clientB.callTool({
      name: "ver_link",
      arguments: { id: testLink.structuredContent.id }
    })
    expect(fromB.isError).toBe(true)
    const fromTest: any = await clientA.callTool({
      name: "ver_link",
      arguments: { id: liveLink.structuredContent.id }
    })
    expect(fromTest.isError).toBe(true)
    const listB: any = await clientB.callTool({ name: "listar_links", arguments: {} })
    expect(listB.structuredContent.links).toEqual([])
    const listA: any = await clientA.callTool({ name: "listar_links", arguments: {} })
    expect(listA.structuredContent.links.map((l: any) => l.id)).toEqual([testLink.structuredContent.id])
    for (const c of [clientA, clientALive, clientB]) await c.close()
  })
})
