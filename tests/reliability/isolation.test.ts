/**
 * Tenant and mode isolation over every route of `/openapi.json`, on two server processes.
 *
 * Two merchants, each with a test and a live key, own one object of every kind. Every route is
 * put in one class below, and a route of the document that is in none fails the suite, so a
 * new route cannot ship without its isolation check:
 * - a route that names an object (a path `{id}`, a body `id` or `flow_id`) answers every other
 *   merchant's key, and the other mode's key for objects that have a mode, 404 `not_found`
 *   (or the 403 a key of the wrong mode gets before any lookup: `requiere_llave_live` on a
 *   live-only route, `reintegro_no_habilitado` on `/reintegro`), and leaves the object as it was;
 * - a route that reads the caller's own data never shows another merchant's or mode's object;
 * - a route that creates reuses no other merchant's idempotency key: the same key makes a new
 *   object for the second merchant.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SETTLEMENT_ACCOUNT } from "../support/live.js"
import { call, merchantWithLiveKey, type Stack, startStack } from "../support/stack.js"

type Who = "A_test" | "A_live" | "B_test" | "B_live"
const WHO: ReadonlyArray<Who> = ["A_test", "A_live", "B_test", "B_live"]
const merchantOf = (w: Who) => w.slice(0, 1)
const isTest = (w: Who) => w.endsWith("test")

/** What each key owns. Webhooks and flow bindings belong to the merchant (both modes). */
interface Owned {
  link: string
  lote: string
  llave: string
  txn: string
  webhook: string
  flow: string
  evento: string
  idempotencyKey: string
}

let stack: Stack
const keys = {} as Record<Who, string>
const owned = {} as Record<Who, Owned>

/** In the merchant's own name (its registered tax id), as SPEC requires of receiving accounts. */
const COBRADOR = { ...SETTLEMENT_ACCOUNT, tipo_doc: "J" }
const PAGADOR = {
  tipo: "telefono",
  valor: "04141234567",
  banco: "0102",
  identificacion: "V-12345678",
  tipo_doc: "V",
  nombre: "Ana Pérez"
}
const cobro = (idempotencyKey: string) => ({
  idempotency_key: idempotencyKey,
  monto: { valor: 10 },
  concepto: "Aislamiento",
  cobrador: COBRADOR,
  pagador: PAGADOR,
  otp: "12345678"
})

const created = async (w: Who, method: string, path: string, body: unknown) => {
  const r = await call(stack.url, method, path, { key: keys[w], body })
  if (r.status !== 200 && r.status !== 201)
    throw new Error(`${w} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}

beforeAll(async () => {
  stack = await startStack({ SWITCH_WORKERS: "2", SWITCH_API_POR_MINUTO: "100000" })
  for (const m of ["A", "B"] as const) {
    const merchant = await merchantWithLiveKey(stack, `aislado_${m.toLowerCase()}`)
    keys[`${m}_test`] = merchant.testKey
    keys[`${m}_live`] = merchant.liveKey
  }
  for (const m of ["A", "B"] as const) {
    const live: Who = `${m}_live`
    const webhook = await created(live, "POST", "/switch/v1/webhooks", {
      url: "https://aislado.invalid/aislado",
      eventos: ["link.pagado"]
    })
    const flow = await created(live, "POST", "/switch/v1/flow/config", {
      cuenta: COBRADOR,
      app_secret: "secreto"
    })
    for (const w of [`${m}_test`, live] as const) {
      const idempotencyKey = randomUUID()
      owned[w] = {
        link: (await created(w, "POST", "/switch/v1/links", { monto: 10, concepto: `Link de ${w}` })).id,
        lote: (
          await created(w, "POST", "/switch/v1/lotes", { items: [{ monto: 5, concepto: `Lote de ${w}` }] })
        ).id,
        // A live key makes keys of either mode; each key here is of the mode of its owner.
        llave: (await created(live, "POST", "/switch/v1/llaves", { label: `llave ${w}`, mode: w.slice(2) }))
          .id,
        // Test mode approves the code 12345678; the bank simulator rejects it in live mode,
        // which still leaves an operation of the live key's own.
        txn: (await created(w, "POST", "/switch/v1/cobrar", cobro(idempotencyKey))).id,
        webhook: webhook.id,
        flow: flow.flow_id,
        // The operation above left a notice of this key's own merchant and mode.
        evento: (await call(stack.url, "GET", "/switch/v1/eventos?limit=1", { key: keys[w] })).body[0].id,
        idempotencyKey
      }
    }
  }
}, 120_000)
afterAll(() => stack?.stop())

/** Keys that must not reach `owner`'s object: every other merchant's, and the other mode's too when it has a mode. */
const strangers = (owner: Who, perMerchant: boolean) =>
  WHO.filter((w) => (perMerchant ? merchantOf(w) !== merchantOf(owner) : w !== owner))

/** A route naming an object: the kind of object, who may call it at all, and how to call it for one. */
interface ObjectRoute {
  readonly kind: keyof Omit<Owned, "idempotencyKey">
  /** The object belongs to the merchant, not to one mode. */
  readonly perMerchant?: true
  /** Only live keys may call it: any test key gets 403 requiere_llave_live before any lookup. */
  readonly liveOnly?: true
  /** Only test keys may call it: a live key gets this 403 code before any lookup. */
  readonly testOnly?: string
  readonly path: (id: string) => string
  readonly body?: (id: string) => unknown
}

const link = { kind: "link" } as const
const lote = { kind: "lote" } as const
const webhook = { kind: "webhook", perMerchant: true } as const
const txn = { kind: "txn" } as const
const flow = { kind: "flow", perMerchant: true, liveOnly: true } as const
const evento = { kind: "evento" } as const

const OBJECT_ROUTES: Record<string, ObjectRoute> = {
  "GET /switch/v1/links/{id}": { ...link, path: (id) => `/switch/v1/links/${id}` },
  "POST /switch/v1/links/{id}/cancelar": { ...link, path: (id) => `/switch/v1/links/${id}/cancelar` },
  "POST /switch/v1/links/{id}/simular": {
    ...link,
    path: (id) => `/switch/v1/links/${id}/simular`,
    body: () => ({ resultado: "pagado" })
  },
  "GET /switch/v1/links/{id}/historial": { ...link, path: (id) => `/switch/v1/links/${id}/historial` },
  "GET /switch/v1/lotes/{id}": { ...lote, path: (id) => `/switch/v1/lotes/${id}` },
  "POST /switch/v1/lotes/{id}/cancelar": { ...lote, path: (id) => `/switch/v1/lotes/${id}/cancelar` },
  "GET /switch/v1/webhooks/{id}": { ...webhook, path: (id) => `/switch/v1/webhooks/${id}` },
  "PATCH /switch/v1/webhooks/{id}": {
    ...webhook,
    liveOnly: true,
    path: (id) => `/switch/v1/webhooks/${id}`,
    body: () => ({ url: "https://robado.invalid/robado", estado: "inactivo" })
  },
  "DELETE /switch/v1/webhooks/{id}": {
    ...webhook,
    liveOnly: true,
    path: (id) => `/switch/v1/webhooks/${id}`
  },
  "GET /switch/v1/webhooks/{id}/deliveries": {
    ...webhook,
    path: (id) => `/switch/v1/webhooks/${id}/deliveries`
  },
  "POST /switch/v1/webhooks/{id}/probar": { ...webhook, path: (id) => `/switch/v1/webhooks/${id}/probar` },
  "POST /switch/v1/eventos/{id}/reenviar": { ...evento, path: (id) => `/switch/v1/eventos/${id}/reenviar` },
  // A live key also manages its merchant's test keys (SPEC: only creating or revoking a live
  // key needs a live key), so only other merchants are strangers to a key.
  "POST /switch/v1/llaves/{id}/revocar": {
    kind: "llave",
    perMerchant: true,
    path: (id) => `/switch/v1/llaves/${id}/revocar`
  },
  "POST /switch/v1/llaves/{id}/rotar": {
    kind: "llave",
    perMerchant: true,
    path: (id) => `/switch/v1/llaves/${id}/rotar`,
    body: () => ({ solapamiento_horas: 0 })
  },
  "POST /switch/v1/consultar": { ...txn, path: () => "/switch/v1/consultar", body: (id) => ({ id }) },
  "POST /switch/v1/reintegro": {
    ...txn,
    testOnly: "reintegro_no_habilitado",
    path: () => "/switch/v1/reintegro",
    body: (id) => ({ id })
  },
  "POST /switch/v1/reverso": {
    ...txn,
    path: () => "/switch/v1/reverso",
    body: (id) => ({ id, idempotency_key: randomUUID() })
  },
  "POST /switch/v1/flow/config": {
    ...flow,
    path: () => "/switch/v1/flow/config",
    body: (id) => ({ flow_id: id, cuenta: COBRADOR, app_secret: "robado" })
  },
  "PUT /switch/v1/flows/definicion": {
    ...flow,
    path: () => "/switch/v1/flows/definicion",
    body: (id) => ({ flow_id: id })
  }
}

/** Routes that read the caller's own data: none may show another merchant's or mode's object. */
const READ_ROUTES: Record<string, string> = {
  "GET /switch/v1/links": "/switch/v1/links?limit=200",
  // A count: its own merchant's and mode's links only, checked in apps/server/src/links/total.test.ts.
  "GET /switch/v1/links/total": "/switch/v1/links/total",
  "GET /switch/v1/lotes": "/switch/v1/lotes?limit=200",
  "GET /switch/v1/transacciones": "/switch/v1/transacciones?limit=200",
  "GET /switch/v1/transacciones/total": "/switch/v1/transacciones/total",
  "GET /switch/v1/transacciones/exportar": "/switch/v1/transacciones/exportar",
  "GET /switch/v1/llaves": "/switch/v1/llaves",
  "GET /switch/v1/webhooks": "/switch/v1/webhooks",
  "GET /switch/v1/eventos": "/switch/v1/eventos?limit=200",
  "GET /switch/v1/clientes": "/switch/v1/clientes?limit=200",
  "GET /switch/v1/liquidaciones": "/switch/v1/liquidaciones?limit=200",
  // A count: its own merchant's and mode's settlements only, checked in
  // apps/server/src/liquidaciones/total.test.ts.
  "GET /switch/v1/liquidaciones/total": "/switch/v1/liquidaciones/total",
  "GET /switch/v1/resumen": "/switch/v1/resumen",
  "GET /switch/v1/config": "/switch/v1/config"
}

/** Routes that create: another merchant's idempotency key makes an object of the caller's own. */
const CREATE_ROUTES = [
  "POST /switch/v1/links",
  "POST /switch/v1/lotes",
  "POST /switch/v1/cobrar/token",
  "POST /switch/v1/cobrar",
  "POST /switch/v1/pagar",
  "POST /switch/v1/dispersiones",
  "POST /switch/v1/llaves",
  "POST /switch/v1/webhooks"
]

/** Checked elsewhere in this file (the stream) or public by SPEC (no key, no merchant's data). */
const OTHER_ROUTES = [
  "GET /switch/v1/eventos/stream",
  // The request log names paths a stranger tried, ids included; its isolation is checked in
  // apps/server/src/logs/logs.test.ts by request id.
  "GET /switch/v1/logs",
  "PUT /switch/v1/config",
  "GET /switch/v1/verificar/{codigo}",
  "POST /switch/v1/comercios/registrar",
  "POST /switch/v1/flows/cobro/{flowId}",
  // The portal's session routes act on the caller's own session only (a key is 401 there); a
  // session's isolation over the merchant routes is checked in apps/server/src/sesiones/sesiones.test.ts.
  "POST /switch/v1/sesion",
  "GET /switch/v1/sesion",
  "DELETE /switch/v1/sesion",
  "POST /switch/v1/sesion/cerrar-todas",
  "POST /switch/v1/sesion/modo",
  // The portal's stream of changes takes a session only (a key is 401); its isolation by
  // merchant, mode and role is checked in apps/server/src/eventos/cambios.test.ts.
  "GET /switch/v1/sesion/cambios",
  // Public one-time password links: the token is the credential, the answer tells nothing of a
  // merchant (checked in apps/server/src/equipo/equipo.test.ts).
  "POST /switch/v1/contrasena/olvido",
  "POST /switch/v1/contrasena",
  // The e-mail link: the same kind of one-time token (checked in apps/server/src/sesiones/sesiones.test.ts).
  "POST /switch/v1/correo/verificar",
  // The team takes an owner's session only (a key is 401); another merchant's user is 404 there,
  // checked in apps/server/src/equipo/equipo.test.ts.
  "GET /switch/v1/equipo",
  "POST /switch/v1/equipo",
  "PATCH /switch/v1/equipo/{id}",
  "DELETE /switch/v1/equipo/{id}",
  // The signed-in user's own second factor: a session only, acting on its own user (a key is
  // 401), checked in apps/server/src/seguridad/totp.test.ts.
  "POST /switch/v1/sesion/totp",
  "POST /switch/v1/sesion/totp/confirmar",
  "POST /switch/v1/sesion/totp/recuperacion",
  "POST /switch/v1/sesion/totp/desactivar",
  // The audit log: an owner's session only; another merchant's entries never show, checked in
  // apps/server/src/actividad/actividad.test.ts.
  "GET /switch/v1/actividad",
  // The merchant's own payment page's settings: a session only (a key is 401), of the session's
  // own merchant, no id in the path; checked in apps/server/src/mipagina/mipagina.test.ts.
  // Its save, and a bulk action's creation below, refuse cajero and lectura (403) and a key
  // (401) on the built server in tests/reliability/rolesPropietario.test.ts.
  "GET /switch/v1/mi-pagina",
  "PUT /switch/v1/mi-pagina",
  // Bulk actions: an owner's session only (a key is 401); another merchant's action is 404,
  // checked in apps/server/src/links/accionesMasivas.test.ts.
  "POST /switch/v1/acciones-masivas",
  "GET /switch/v1/acciones-masivas/{id}",
  "GET /switch/v1/acciones-masivas/{id}/archivo",
  // A link's refunds from the portal: a session only (a key is 401); another merchant's or
  // mode's link is 404 and nothing is sent to the bank, checked in
  // apps/server/src/direct/reembolsos.test.ts.
  "GET /switch/v1/links/{id}/reembolsos",
  "POST /switch/v1/links/{id}/reembolsos",
  // Links priced in dollars: a session only (a key is 401); another merchant's link is 404,
  // checked in apps/server/src/links/dolares.test.ts.
  "POST /switch/v1/links/dolares",
  "GET /switch/v1/links/{id}/dolares",
  // Tips: a session only (a key is 401), acting on its own merchant, checked in
  // apps/server/src/propinas/propinas.test.ts.
  "GET /switch/v1/propinas",
  "PUT /switch/v1/propinas",
  // The opt-in daily summary mail: a propietario's session only (a key is 401, another role
  // 403), acting on its own merchant, checked in apps/server/src/correos/resumenDiario.test.ts.
  "GET /switch/v1/resumen-diario",
  "PUT /switch/v1/resumen-diario",
  // Split accounts approved in the portal: a session only (a key is 401), acting on its own
  // merchant's list; another merchant's account id is 404, checked in
  // apps/server/src/cuentas/cuentas.test.ts.
  "GET /switch/v1/cuentas-aprobadas",
  "POST /switch/v1/cuentas-aprobadas",
  "DELETE /switch/v1/cuentas-aprobadas/{id}"
]

/** What the owner sees of an object, to compare before and after strangers tried it. */
const ownerView = async (owner: Who, kind: ObjectRoute["kind"]): Promise<unknown> => {
  const id = owned[owner][kind]
  const key = keys[owner]
  const get = async (path: string) => (await call(stack.url, "GET", path, { key })).body
  switch (kind) {
    case "link":
      return get(`/switch/v1/links/${id}`)
    case "lote":
      return get(`/switch/v1/lotes/${id}`)
    case "webhook":
      return get(`/switch/v1/webhooks/${id}`)
    case "llave":
      return (await get("/switch/v1/llaves")).find((k: { id: string }) => k.id === id)
    case "txn":
      return (await call(stack.url, "POST", "/switch/v1/consultar", { key, body: { id } })).body
    case "evento":
      return (await get("/switch/v1/eventos?limit=200")).find((e: { id: string }) => e.id === id)
    case "flow": {
      // Its secrets never show: that its owner can still set its definition stands for it.
      const live = keys[`${merchantOf(owner)}_live` as Who]
      const body = { flow_id: id }
      return (await call(stack.url, "PUT", "/switch/v1/flows/definicion", { key: live, body })).status
    }
  }
}

describe("isolation over every route", () => {
  it("every route of /openapi.json is in one class of this suite", async () => {
    const spec = (await call(stack.url, "GET", "/openapi.json")).body
    const routes = Object.entries(spec.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`)
    )
    const classes = [Object.keys(OBJECT_ROUTES), Object.keys(READ_ROUTES), CREATE_ROUTES, OTHER_ROUTES].flat()
    expect(
      routes.filter((r) => !classes.includes(r)),
      "routes without an isolation check"
    ).toEqual([])
    expect(
      classes.filter((r) => !routes.includes(r)),
      "classified routes the document lacks"
    ).toEqual([])
    expect(new Set(classes).size).toBe(classes.length)
  })

  it.each(Object.entries(OBJECT_ROUTES))(
    "%s: another merchant's or mode's object is 404 and unchanged",
    async (name, route) => {
      const method = name.split(" ")[0] ?? "GET"
      for (const owner of WHO) {
        const before = await ownerView(owner, route.kind)
        expect(before, `${owner} sees its own ${route.kind}`).toBeTruthy()
        const id = owned[owner][route.kind]
        for (const stranger of strangers(owner, route.perMerchant === true)) {
          const reply = await call(stack.url, method, route.path(id), {
            key: keys[stranger],
            ...(route.body === undefined ? {} : { body: route.body(id) })
          })
          const what = `${stranger} on ${owner}'s ${route.kind}: ${reply.status} ${JSON.stringify(reply.body)}`
          if (route.liveOnly && isTest(stranger)) {
            expect(reply.status, what).toBe(403)
            expect(reply.body.error, what).toBe("requiere_llave_live")
          } else if (route.testOnly !== undefined && !isTest(stranger)) {
            expect(reply.status, what).toBe(403)
            expect(reply.body.error, what).toBe(route.testOnly)
          } else {
            expect(reply.status, what).toBe(404)
            expect(reply.body.error, what).toBe("not_found")
          }
        }
        expect(await ownerView(owner, route.kind), `${owner}'s ${route.kind} after strangers tried`).toEqual(
          before
        )
      }
    }
  )

  it.each(Object.entries(READ_ROUTES))("%s shows no other merchant's or mode's object", async (_, path) => {
    for (const reader of WHO) {
      const reply = await call(stack.url, "GET", path, { key: keys[reader] })
      expect(reply.status, `${reader} ${path}`).toBe(200)
      const text = JSON.stringify(reply.body)
      for (const owner of WHO.filter((w) => w !== reader)) {
        const sameMerchant = merchantOf(owner) === merchantOf(reader)
        for (const [kind, id] of Object.entries(owned[owner])) {
          // Webhooks and flow bindings are shared by the merchant's two modes. Idempotency keys
          // are reused on purpose by a later test, which checks them itself.
          if (sameMerchant && (kind === "webhook" || kind === "flow")) continue
          if (kind === "idempotencyKey") continue
          expect(text.includes(id), `${reader} ${path} shows ${owner}'s ${kind}`).toBe(false)
        }
        if (!sameMerchant) expect(text.includes(`aislado_${merchantOf(owner).toLowerCase()}`)).toBe(false)
      }
    }
    // Positive control: the lists do show the reader's own objects.
    const own = JSON.stringify(
      (await call(stack.url, "GET", "/switch/v1/links?limit=200", { key: keys.A_test })).body
    )
    expect(own.includes(owned.A_test.link)).toBe(true)
  })

  it("creating with another merchant's idempotency key makes the caller's own object", async () => {
    const key = `compartida-${randomUUID()}`
    const a = await created("A_test", "POST", "/switch/v1/links", {
      monto: 3,
      concepto: "A",
      idempotency_key: key
    })
    const b = await call(stack.url, "POST", "/switch/v1/links", {
      key: keys.B_test,
      body: { monto: 3, concepto: "B", idempotency_key: key }
    })
    expect(b.status).toBe(201)
    expect(b.body.id).not.toBe(a.id)
    const loteA = await created("A_test", "POST", "/switch/v1/lotes", {
      idempotency_key: key,
      items: [{ monto: 1, concepto: "A" }]
    })
    const loteB = await created("B_test", "POST", "/switch/v1/lotes", {
      idempotency_key: key,
      items: [{ monto: 1, concepto: "B" }]
    })
    expect(loteB.id).not.toBe(loteA.id)
    for (const [owner, stranger] of [
      ["A_test", "B_test"],
      ["A_live", "B_live"]
    ] as const) {
      const { otp: _, ...token } = cobro(owned[owner].idempotencyKey)
      for (const [path, body] of [
        ["/switch/v1/cobrar", cobro(owned[owner].idempotencyKey)],
        ["/switch/v1/cobrar/token", token]
      ] as const) {
        const reply = await call(stack.url, "POST", path, { key: keys[stranger], body })
        expect(reply.status, `${stranger} ${path}`).toBe(200)
        expect(reply.body.id, `${stranger} ${path}`).not.toBe(owned[owner].txn)
      }
    }
    // The other mode of the same merchant may not reuse it either.
    const otherMode = await call(stack.url, "POST", "/switch/v1/cobrar", {
      key: keys.A_live,
      body: cobro(owned.A_test.idempotencyKey)
    })
    expect(otherMode.body.id).not.toBe(owned.A_test.txn)
    // Payouts are enabled by the service only (none here); keys and webhooks take no idempotency key.
    for (const w of WHO) {
      for (const path of ["/switch/v1/pagar", "/switch/v1/dispersiones"]) {
        const reply = await call(stack.url, "POST", path, { key: keys[w], body: {} })
        expect(reply.status, `${w} ${path}`).toBe(403)
        expect(reply.body.error).toBe("pagar_no_habilitado")
      }
    }
  })

  it("the event stream carries only the key's own merchant and mode", async () => {
    const streams = await Promise.all(
      WHO.map(async (w) => {
        const abort = new AbortController()
        const response = await fetch(`${stack.url}/switch/v1/eventos/stream`, {
          headers: { "x-switch-key": keys[w], accept: "text/event-stream" },
          signal: abort.signal
        })
        expect(response.status).toBe(200)
        let text = ""
        const reading = (async () => {
          const decoder = new TextDecoder()
          try {
            for await (const chunk of response.body as AsyncIterable<Uint8Array>)
              text += decoder.decode(chunk)
          } catch {}
        })()
        return {
          w,
          text: () => text,
          close: () => {
            abort.abort()
            return reading
          }
        }
      })
    )
    const paid = await created("A_test", "POST", "/switch/v1/links", { monto: 4, concepto: "Evento" })
    await created("A_test", "POST", `/switch/v1/links/${paid.id}/simular`, { resultado: "pagado" })
    const mine = streams.find((s) => s.w === "A_test")
    for (const deadline = Date.now() + 15_000; !mine?.text().includes(paid.id); ) {
      if (Date.now() > deadline) throw new Error("A_test's stream never carried its own link.pagado")
      await new Promise((r) => setTimeout(r, 100))
    }
    // Give the other streams the same chance to (wrongly) carry it.
    await new Promise((r) => setTimeout(r, 1_000))
    for (const s of streams) {
      expect(s.text().includes(paid.id), `${s.w}'s stream`).toBe(s.w === "A_test")
      await s.close()
    }
  })
})
