/**
 * The extended tool set (issue 34) with the official MCP client and a key, against the real
 * API: a link with its return URLs and expiry as the API takes them, `consultar_estado` given a
 * link's id, settlements from the settlements list, and errors that say what happened.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { resolve } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, call, freePort, merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"

let stack: Stack
let mcp: ChildProcess
let mcpUrl: string

beforeAll(async () => {
  stack = await startStack({ SWITCH_API_POR_MINUTO: "100000" })
  const port = await freePort()
  mcp = spawn(process.execPath, [resolve(__dirname, "../../apps/mcp/dist/main.js")], {
    env: { ...process.env, HOST: "", MCP_PORT: String(port), SWITCH_API_URL: stack.url },
    stdio: "ignore"
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
  mcpUrl = `http://127.0.0.1:${port}/mcp`
})
afterAll(async () => {
  mcp?.kill("SIGTERM")
  await stack?.stop()
})

const connect = async (key: string) => {
  const client = new Client({ name: "prueba", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { "x-switch-key": key } } })
  )
  return client
}
const text = (result: any) => (result.content ?? []).map((c: any) => c.text).join(" ")

const merchant = async () => {
  const codigo = `t${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  const reg = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: {
      codigo,
      nombre: `Comercio ${codigo}`,
      identificacion: "J-07013380-5",
      email: `${codigo}@example.com`
    }
  })
  return `${codigo}:${reg.body.api_key}`
}

describe("the extended tools", () => {
  it("crear_link_cobro takes the return URLs and the expiry as the API does", async () => {
    const key = await merchant()
    const client = await connect(key)
    const at = new Date(Date.now() + 3 * 3600_000)
    at.setMilliseconds(0)
    const made: any = await client.callTool({
      name: "crear_link_cobro",
      arguments: {
        monto: 30,
        concepto: "Con retorno",
        expira_en: at.toISOString(),
        success_url: "https://tienda.example/gracias",
        failure_url: "https://tienda.example/fallo"
      }
    })
    expect(made.isError, text(made)).toBeFalsy()
    const link = (await call(stack.url, "GET", `/switch/v1/links/${made.structuredContent.id}`, { key })).body
    expect(link).toMatchObject({
      success_url: "https://tienda.example/gracias",
      failure_url: "https://tienda.example/fallo"
    })
    expect(new Date(link.expires_at).getTime()).toBe(at.getTime())
    expect(made.structuredContent.expires_at).toBe(link.expires_at)
    const refused: any = await client.callTool({
      name: "crear_link_cobro",
      arguments: { monto: 30, concepto: "x", success_url: "http://inseguro.example" }
    })
    expect(refused.isError).toBe(true)
    expect(text(refused)).toContain("success_url")
    await client.close()
  })

  it("cancelar_link names the link's state when it cannot be cancelled", async () => {
    const key = await merchant()
    const client = await connect(key)
    const made: any = await client.callTool({
      name: "crear_link_cobro",
      arguments: { monto: 5, concepto: "Doble" }
    })
    const id = made.structuredContent.id
    expect((await client.callTool({ name: "cancelar_link", arguments: { id } })).isError).toBeFalsy()
    const again: any = await client.callTool({ name: "cancelar_link", arguments: { id } })
    expect(again.isError).toBe(true)
    expect(text(again)).toContain("no_cancelable")
    expect(text(again)).toContain("porque está ya cancelado (estado: cancelado)")
    await client.close()
  })

  it("consultar_estado given a link's id finds the transaction that paid it; ver_liquidaciones lists settlements", async () => {
    // Approved, with immediate settlement: a paid test link is settled at once.
    const m = await merchantWithLiveKey(stack, `liq${Date.now().toString(36)}`)
    const immediate = await call(stack.url, "PATCH", `/admin/v1/comercios/${m.codigo}`, {
      headers: { "x-admin-token": ADMIN_TOKEN },
      body: { liquidacion_inmediata: true }
    })
    expect(immediate.status).toBe(200)
    const key = m.testKey
    const client = await connect(key)
    const made: any = await client.callTool({
      name: "crear_link_cobro",
      arguments: { monto: 42, concepto: "Pagable" }
    })
    const id = made.structuredContent.id
    const unpaid: any = await client.callTool({ name: "consultar_estado", arguments: { id } })
    expect(unpaid.isError).toBe(true)
    expect(text(unpaid)).toContain("pendiente de pago")
    const paid = await call(stack.url, "POST", `/switch/v1/links/${id}/simular`, {
      key,
      body: { resultado: "pagado" }
    })
    expect(paid.status).toBe(200)
    const link = (await call(stack.url, "GET", `/switch/v1/links/${id}`, { key })).body
    const state: any = await client.callTool({ name: "consultar_estado", arguments: { id } })
    expect(state.isError, text(state)).toBeFalsy()
    expect(state.structuredContent).toMatchObject({ id: link.txn_id, link_id: id })
    const nothing: any = await client.callTool({ name: "consultar_estado", arguments: { id: "no-existe" } })
    expect(nothing.isError).toBe(true)
    expect(text(nothing)).toContain("no existe, es de otro comercio o del otro modo")

    // Settled by a job right after the payment.
    await expect
      .poll(async () => (await call(stack.url, "GET", "/switch/v1/liquidaciones", { key })).body.length)
      .toBeGreaterThan(0)
    const settlements = (await call(stack.url, "GET", "/switch/v1/liquidaciones", { key })).body
    const listed: any = await client.callTool({ name: "ver_liquidaciones", arguments: {} })
    expect(listed.isError, text(listed)).toBeFalsy()
    expect(listed.structuredContent.liquidaciones.map((l: any) => l.id)).toEqual(
      settlements.map((l: any) => l.id)
    )
    await client.close()
  })
})
