/** Helpers shared by the integration tests: fresh merchants and route discovery. */
import { randomUUID } from "node:crypto"
import { inject } from "vitest"
import { Switch } from "../src/index.js"

export const baseUrl = () => inject("switchUrl")

/** A new merchant with its own request budget; `sw` uses its test key. */
export const newMerchant = async (prefix = "sdk") => {
  const codigo = `${prefix}${randomUUID().slice(0, 8)}`
  const registered = await Switch.registrar(
    { codigo, nombre: `Comercio ${codigo}`, identificacion: "J-07013380-5", email: `${codigo}@example.com` },
    { baseUrl: baseUrl() }
  )
  return { codigo, key: registered.key, sw: new Switch({ key: registered.key, baseUrl: baseUrl() }) }
}

/** A new merchant approved by the admin API, with its test and live clients. */
export const newLiveMerchant = async (prefix = "sdkl") => {
  const merchant = await newMerchant(prefix)
  const admin = (path: string, body?: unknown) =>
    fetch(`${baseUrl()}/admin/v1/comercios/${merchant.codigo}/${path}`, {
      method: "POST",
      headers: { "x-admin-token": inject("adminToken"), "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  // Approval needs the settlement account in the merchant's own RIF; the review lifts the
  // new-account caps (in dollars, which would need a BCV rate).
  // The live key comes only on the explicit ask (`emitir_llave`).
  const response = await admin("aprobar", {
    emitir_llave: true,
    cuenta_liquidacion: {
      tipo: "cuenta",
      valor: "01050194651194079423",
      banco: "0105",
      identificacion: "J-07013380-5",
      nombre: "Comercio"
    }
  })
  const body = (await response.json()) as { api_key: string }
  if (response.status !== 200) throw new Error(`approve: ${response.status} ${JSON.stringify(body)}`)
  const reviewed = await admin("revisar")
  if (reviewed.status !== 200) throw new Error(`review: ${reviewed.status} ${await reviewed.text()}`)
  const liveKey = `${merchant.codigo}:${body.api_key}`
  return { ...merchant, liveKey, live: new Switch({ key: liveKey, baseUrl: baseUrl() }) }
}

const probes = new Map<string, Promise<boolean>>()
/**
 * Whether the running server serves `method path` (routes of other issues land over time;
 * /openapi.json lists a route as soon as its contract exists, before its handler does). An
 * unserved route answers `404 not_found`; a served one answers 2xx, or 400 to an empty body.
 */
export const hasRoute = (method: "GET" | "POST", path: string): Promise<boolean> => {
  const id = `${method} ${path}`
  let probe = probes.get(id)
  if (probe === undefined) {
    probe = fetch(`${baseUrl()}${path}`, {
      method,
      headers: {
        "x-switch-key": inject("demoKey"),
        ...(method === "POST" ? { "content-type": "application/json" } : {})
      },
      ...(method === "POST" ? { body: "{}" } : {})
    }).then(async (r) => {
      await r.arrayBuffer()
      return r.status !== 404
    })
    probes.set(id, probe)
  }
  return probe
}

/** Waits until `check` returns a value, polling. */
export const eventually = async <T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error("timed out waiting")
    await new Promise((r) => setTimeout(r, 200))
  }
}
