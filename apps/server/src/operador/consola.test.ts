/**
 * The console's BCV rate, incidents and alerts (issue 32) against the real server: the rate set
 * by hand (tesorería) or fetched from SWITCH_TASA_FUENTE_URL (by the durable job at start-up and
 * on demand), with the history of who set each; a failing source raises one alert, resolved by
 * the next good fetch; incidents by bank shown by /estado and /estado.json; alerts (a stale rate,
 * an old item of the queue) sent to SWITCH_ALERTAS_URL once each, signed like merchants' notices.
 */
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { approveMerchant, call, registerMerchant, startServer, type TestServer } from "../../test/harness.js"
import {
  eventually,
  query,
  type Receiver,
  signaturesValid,
  startReceiver
} from "../../test/webhooksReceiver.js"
import { totpCode, totpStep } from "../platform/Totp.js"

const TOKEN = { "x-admin-token": "admin-de-prueba" }
const PASSWORD = "una clave larga de consola"
const SECRETO = "whsec_c2VjcmV0by1kZS1hbGVydGFzLWRlLXBydWViYQ=="
let server: TestServer
let receiver: Receiver
let fuente: { url: string; reply: { status: number; body: string }; hits: number; close: () => Promise<void> }

beforeAll(async () => {
  receiver = await startReceiver()
  const state = { status: 200, body: JSON.stringify({ ves_por_usd: "40.25" }) }
  let hits = 0
  const http = createServer((_req, res) => {
    hits++
    fuente.hits = hits
    res.writeHead(fuente.reply.status, { "content-type": "application/json" })
    res.end(fuente.reply.body)
  })
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", () => done()))
  const address = http.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  fuente = {
    url: `http://127.0.0.1:${port}/tasa`,
    reply: state,
    hits: 0,
    close: () => new Promise((done) => http.close(() => done()))
  }
  server = await startServer({
    settings: {
      tasaFuenteUrl: fuente.url,
      alertasUrl: receiver.url,
      alertasSecreto: SECRETO,
      webhookAllowPrivate: true,
      alertaColaMinutos: 0.01,
      alertasRevisarSegundos: 1,
      // One operator closes a queue item here (four eyes: cuatroOjos.test.ts).
      cuatroOjosDesde: 1_000_000
    }
  })
}, 120_000)
afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await fuente?.close()
})

const db = <T = any>(text: string, values: Array<unknown> = []) => query<T>(server.databaseUrl, text, values)

const signedIn = async (rol: string) => {
  const email = `${rol}-${randomUUID().slice(0, 8)}@switch.test`
  const created = await call(server.url, "POST", "/admin/v1/operadores", {
    headers: TOKEN,
    body: { email, password: PASSWORD, rol }
  })
  const reply = await call(server.url, "POST", "/admin/v1/operador/sesion", {
    body: { email, password: PASSWORD, codigo: totpCode(created.body.totp_secret, totpStep(Date.now())) }
  })
  expect(reply.status).toBe(200)
  const cookie = (reply.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
  const as = (method: string, path: string, body?: unknown) =>
    call(server.url, method, path, { body, headers: { cookie, "x-csrf-token": reply.body.csrf_token } })
  return Object.assign(as, { email })
}

describe("the BCV rate", () => {
  it("the durable job fetches the source at start-up; tesoreria sets it by hand; the history says who set each", async () => {
    const soporte = await signedIn("soporte")
    const fetched = await eventually(async () => {
      const view = await soporte("GET", "/admin/v1/operador/tasa-bcv")
      return view.body.vigente?.fuente === "url" ? view.body : undefined
    })
    expect(fetched).toMatchObject({
      vigente: { ves_por_usd: 40.25, fuente: "url", fijada_por: "fuente" },
      vencida: false,
      fuente_configurada: true,
      max_horas: 48
    })
    expect((await soporte("POST", "/admin/v1/operador/tasa-bcv", { ves_por_usd: 41 })).status).toBe(403)

    const tesoreria = await signedIn("tesoreria")
    expect((await tesoreria("POST", "/admin/v1/operador/tasa-bcv", { ves_por_usd: "0" })).status).toBe(400)
    expect(
      (await tesoreria("POST", "/admin/v1/operador/tasa-bcv", { ves_por_usd: "1.123456789" })).status
    ).toBe(400)
    const set = await tesoreria("POST", "/admin/v1/operador/tasa-bcv", {
      ves_por_usd: "41.5",
      nota: "BCV 9 a. m."
    })
    expect(set.status, JSON.stringify(set.body)).toBe(201)
    expect(set.body.vigente).toMatchObject({
      ves_por_usd: 41.5,
      fuente: "operador",
      fijada_por: tesoreria.email
    })
    // The admin token still sets it, and the history says so; the merchants' API sees the latest.
    expect(
      (await call(server.url, "PUT", "/admin/v1/tasa-bcv", { headers: TOKEN, body: { ves_por_usd: 42 } }))
        .status
    ).toBe(200)
    const view = await tesoreria("GET", "/admin/v1/operador/tasa-bcv")
    expect(view.body.historial.slice(0, 3).map((h: any) => [h.ves_por_usd, h.fijada_por])).toEqual([
      [42, "token de administración"],
      [41.5, tesoreria.email],
      [40.25, "fuente"]
    ])
    // Both changes are audited: the operator's, and the admin token's as token_admin.
    const audit = await db(
      "select accion, nota, actor from auditoria where objeto_tipo = 'tasa_bcv' order by id"
    )
    expect(audit).toEqual([
      { accion: "tasa.fijar", nota: "BCV 9 a. m.", actor: tesoreria.email },
      { accion: "tasa.fijar", nota: null, actor: "token_admin" }
    ])
  })

  it("a failing source raises one alert (not repeated), resolved by the next good fetch", async () => {
    const tesoreria = await signedIn("tesoreria")
    fuente.reply = { status: 500, body: "caído" }
    const failed = await tesoreria("POST", "/admin/v1/operador/tasa-bcv/fuente")
    expect(failed.status).toBe(502)
    expect(failed.body.error).toBe("fuente_tasa_fallo")
    fuente.reply = { status: 200, body: JSON.stringify({ otra: 1 }) }
    expect((await tesoreria("POST", "/admin/v1/operador/tasa-bcv/fuente")).status).toBe(502)
    const alerts = (await tesoreria("GET", "/admin/v1/operador/alertas")).body.data
    expect(alerts.filter((a: any) => a.tipo === "tasa_fuente_falla")).toHaveLength(1)
    fuente.reply = { status: 200, body: JSON.stringify({ ves_por_usd: 43.1 }) }
    const good = await tesoreria("POST", "/admin/v1/operador/tasa-bcv/fuente")
    expect(good.status, JSON.stringify(good.body)).toBe(200)
    expect(good.body.vigente).toMatchObject({ ves_por_usd: 43.1, fuente: "url" })
    const after = (await tesoreria("GET", "/admin/v1/operador/alertas")).body.data
    expect(after.filter((a: any) => a.tipo === "tasa_fuente_falla")).toHaveLength(0)
    // Sent once, while it was open.
    await eventually(() => receiver.received.some((r) => r.body.includes("tasa_fuente_falla")))
    expect(receiver.received.filter((r) => r.body.includes('"tasa_fuente_falla"'))).toHaveLength(1)
  })
})

describe("incidents by bank", () => {
  it("riesgo opens one and tesoreria closes it; /estado and /estado.json show it; soporte cannot", async () => {
    const soporte = await signedIn("soporte")
    expect(
      (await soporte("POST", "/admin/v1/operador/incidentes", { banco: "0102", titulo: "Lentitud" })).status
    ).toBe(403)
    const riesgo = await signedIn("riesgo")
    expect((await riesgo("POST", "/admin/v1/operador/incidentes", { banco: "12", titulo: "x" })).status).toBe(
      400
    )
    const opened = await riesgo("POST", "/admin/v1/operador/incidentes", {
      banco: "0102",
      titulo: "Débitos <lentos>",
      detalle: "El banco confirma tarde"
    })
    expect(opened.status, JSON.stringify(opened.body)).toBe(201)
    expect(opened.body).toMatchObject({ banco: "0102", abierto_por: riesgo.email, cerrado_en: null })
    const status = await call(server.url, "GET", "/estado.json")
    expect(status.body.incidentes_bancos).toEqual([
      expect.objectContaining({ banco: "0102", titulo: "Débitos <lentos>", activo: true, cerrado_en: null })
    ])
    const page = await fetch(`${server.url}/estado`).then((r) => r.text())
    expect(page).toContain("Banco 0102: Débitos &lt;lentos&gt;")
    expect(page).toContain("en curso")

    const tesoreria = await signedIn("tesoreria")
    const closed = await tesoreria("POST", `/admin/v1/operador/incidentes/${opened.body.id}/cerrar`, {
      nota: "normalizado"
    })
    expect(closed.status).toBe(200)
    expect(closed.body).toMatchObject({ cerrado_por: tesoreria.email, nota_cierre: "normalizado" })
    expect(
      (await tesoreria("POST", `/admin/v1/operador/incidentes/${opened.body.id}/cerrar`, {})).body.error
    ).toBe("incidente_cerrado")
    expect((await tesoreria("POST", `/admin/v1/operador/incidentes/${randomUUID()}/cerrar`, {})).status).toBe(
      404
    )
    const after = await call(server.url, "GET", "/estado.json")
    expect(after.body.incidentes_bancos[0]).toMatchObject({ activo: false })
    // Older than 7 days: no longer shown.
    await db(
      "update incidentes set abierto_at = now() - interval '9 days', cerrado_at = now() - interval '8 days'"
    )
    expect((await call(server.url, "GET", "/estado.json")).body.incidentes_bancos).toEqual([])
    const list = await soporte("GET", "/admin/v1/operador/incidentes")
    expect(list.body.data).toEqual([])
    const audit = await db("select accion from auditoria where objeto_tipo = 'incidente' order by id")
    expect(audit.map((a: any) => a.accion)).toEqual(["incidente.abrir", "incidente.cerrar"])
  })
})

describe("alerts", () => {
  it("an old item of the queue raises one alert, on the console and sent signed to SWITCH_ALERTAS_URL once", async () => {
    const m = await registerMerchant(server.url)
    const comercio = (await call(server.url, "GET", `/admin/v1/comercios/${m.codigo}`, { headers: TOKEN }))
      .body.id
    const id = randomUUID()
    await db(
      `insert into transacciones (id, comercio_id, mode, operacion, estado, monto, moneda, idempotency_key, detalle,
         operacion_banco, fase, desconocida_desde, revision_desde, created_at, updated_at)
       values ($1::uuid, $2, 'test', 'pago', 'DESCONOCIDA', 5000, 'VES', $1::text, '{}'::jsonb, $1::text, 'enviada',
         now() - interval '1 hour', now(), now() - interval '1 hour', now())`,
      [id, comercio]
    )
    const soporte = await signedIn("soporte")
    const alert = await eventually(
      async () =>
        ((await soporte("GET", "/admin/v1/operador/alertas")).body.data as Array<any>).find(
          (a) => a.tipo === "cola_antigua" && a.detalle.id === id
        ),
      15_000,
      200
    )
    expect(alert.detalle).toMatchObject({ tipo: "transaccion", id })
    const sent = await eventually(() => receiver.received.find((r) => r.body.includes(id)), 15_000, 200)
    expect(signaturesValid(sent, SECRETO)).toBe(true)
    expect(sent.headers["webhook-id"]).toBe(`alerta_${alert.id}`)
    expect(JSON.parse(sent.body)).toMatchObject({
      evento: "alerta.cola_antigua",
      data: { tipo: "cola_antigua" }
    })
    // Checks keep running (every second): the same alert is not sent again.
    await new Promise((r) => setTimeout(r, 2500))
    expect(receiver.received.filter((r) => r.body.includes(id))).toHaveLength(1)
    expect(await db("select 1 from alertas where clave = $1", [`cola:transaccion:${id}`])).toHaveLength(1)
    // Once resolved (the operation closed), the alert is resolved too.
    const tesoreria = await signedIn("tesoreria")
    expect(
      (
        await tesoreria("POST", `/admin/v1/operador/revision/transacciones/${id}/cerrar`, {
          nota: "no hubo débito"
        })
      ).status
    ).toBe(200)
    await eventually(
      async () =>
        ((await db("select resuelta_at from alertas where clave = $1", [`cola:transaccion:${id}`]))[0]
          ?.resuelta_at ?? null) !== null,
      15_000,
      200
    )
  })

  it("a merchant's failing webhook endpoint raises one alert, sent once, resolved by its next delivery", async () => {
    const m = await registerMerchant(server.url)
    // Webhooks are set with a live key.
    const liveKey = await approveMerchant(server, m.codigo)
    const hook = await call(server.url, "POST", "/switch/v1/webhooks", {
      key: liveKey,
      body: { url: `${receiver.url}?caido-${m.codigo}`, eventos: ["link.pagado"] }
    })
    expect(hook.status).toBe(201)
    const comercio = (await call(server.url, "GET", `/admin/v1/comercios/${m.codigo}`, { headers: TOKEN }))
      .body.id
    // The endpoint's last finished delivery failed (its retries spent).
    const delivery = (estado: string, minutesAgo: number) =>
      db(
        `insert into webhook_entregas (id, webhook_id, comercio_id, evento, mode, cuerpo, estado, intentos, created_at)
         values ($1::uuid, $2::uuid, $3, 'link.pagado', 'live', '{}', $4, 8, now() - make_interval(mins => $5))`,
        [randomUUID(), hook.body.id, comercio, estado, minutesAgo]
      )
    await delivery("fallido", 5)
    const soporte = await signedIn("soporte")
    const alert = await eventually(
      async () =>
        ((await soporte("GET", "/admin/v1/operador/alertas")).body.data as Array<any>).find(
          (a) => a.tipo === "webhook_fallando" && a.detalle.webhook_id === hook.body.id
        ),
      15_000,
      200
    )
    expect(alert.detalle).toMatchObject({ comercio: m.codigo, host: new URL(receiver.url).host })
    // Only the endpoint's host goes in the alert, not its full address.
    expect(JSON.stringify(alert)).not.toContain(`caido-${m.codigo}`)
    const sent = await eventually(
      () =>
        receiver.received.find((r) => r.body.includes(hook.body.id) && r.body.includes("webhook_fallando")),
      15_000,
      200
    )
    expect(signaturesValid(sent, SECRETO)).toBe(true)
    await new Promise((r) => setTimeout(r, 2500))
    expect(receiver.received.filter((r) => r.body.includes(hook.body.id))).toHaveLength(1)
    // A later delivery reached it: the alert is resolved.
    await delivery("entregado", 1)
    await eventually(
      async () =>
        ((await db("select resuelta_at from alertas where clave = $1", [`webhook:${hook.body.id}`]))[0]
          ?.resuelta_at ?? null) !== null,
      15_000,
      200
    )
  })
})

describe("managing operators", () => {
  it("riesgo lists, deactivates (sessions end, no sign-in), reactivates and resets another's TOTP; never its own; each audited", async () => {
    const riesgo = await signedIn("riesgo")
    const soporte = await signedIn("soporte")
    const email = `objetivo-${randomUUID().slice(0, 8)}@switch.test`
    const created = await call(server.url, "POST", "/admin/v1/operadores", {
      headers: TOKEN,
      body: { email, password: PASSWORD, rol: "tesoreria" }
    })
    const signIn = (secret: string) =>
      call(server.url, "POST", "/admin/v1/operador/sesion", {
        body: { email, password: PASSWORD, codigo: totpCode(secret, totpStep(Date.now())) }
      })
    const first = await signIn(created.body.totp_secret)
    expect(first.status).toBe(200)
    const cookie = (first.headers.get("set-cookie") ?? "").split(";")[0] ?? ""

    const list = await soporte("GET", "/admin/v1/operador/operadores")
    expect(list.status).toBe(200)
    const target = list.body.data.find((o: any) => o.email === email)
    expect(target).toMatchObject({ rol: "tesoreria", activo: true })
    expect((await soporte("POST", `/admin/v1/operador/operadores/${target.id}/desactivar`, {})).status).toBe(
      403
    )
    const me = (await riesgo("GET", "/admin/v1/operador/sesion")).body.operador.id
    expect((await riesgo("POST", `/admin/v1/operador/operadores/${me}/desactivar`, {})).body.error).toBe(
      "operador_propio"
    )

    const off = await riesgo("POST", `/admin/v1/operador/operadores/${target.id}/desactivar`, {
      nota: "dejó el equipo"
    })
    expect(off.status).toBe(200)
    expect(off.body.activo).toBe(false)
    expect((await call(server.url, "GET", "/admin/v1/operador/sesion", { headers: { cookie } })).status).toBe(
      401
    )
    expect((await signIn(created.body.totp_secret)).status).toBe(401)

    expect((await riesgo("POST", `/admin/v1/operador/operadores/${target.id}/activar`, {})).body.activo).toBe(
      true
    )
    const reset = await riesgo("POST", `/admin/v1/operador/operadores/${target.id}/restablecer-totp`, {})
    expect(reset.status).toBe(200)
    expect(reset.body).toMatchObject({ id: target.id, activo: true, totp_por_configurar: true })
    // riesgo never sees the new secret: no secret and no otpauth URI in its answer.
    expect(reset.body.totp_secret).toBeUndefined()
    expect(reset.body.totp_uri).toBeUndefined()
    expect(JSON.stringify(reset.body)).not.toMatch(/otpauth|secret/i)
    // The old authenticator stops at once.
    expect((await signIn(created.body.totp_secret)).status).toBe(401)

    const audit = await db<{ accion: string; nota: string | null; actor: string }>(
      "select accion, nota, actor from auditoria where objeto_tipo = 'operador' and objeto_id = $1 order by id",
      [target.id]
    )
    expect(audit.map((a) => a.accion)).toEqual([
      "operador.crear",
      "operador.desactivar",
      "operador.activar",
      "operador.restablecer_totp"
    ])
    expect(audit[1]?.nota).toBe("dejó el equipo")
    expect(audit[0]?.actor).toBe("token_admin")
  })

  it("after a TOTP reset the operator concerned, and only after its password, gets a new secret and enrols at its next sign-in", async () => {
    const riesgo = await signedIn("riesgo")
    const email = `enrola-${randomUUID().slice(0, 8)}@switch.test`
    const created = await call(server.url, "POST", "/admin/v1/operadores", {
      headers: TOKEN,
      body: { email, password: PASSWORD, rol: "soporte" }
    })
    const attempt = (body: Record<string, unknown>) =>
      call(server.url, "POST", "/admin/v1/operador/sesion", { body: { email, ...body } })
    const reset = await riesgo(
      "POST",
      `/admin/v1/operador/operadores/${created.body.id}/restablecer-totp`,
      {}
    )
    expect(reset.status).toBe(200)
    expect(reset.body.totp_secret).toBeUndefined()
    // A wrong password gets the usual refusal, never the enrolment.
    const wrong = await attempt({ password: "otra clave cualquiera" })
    expect(wrong.status).toBe(401)
    expect(JSON.stringify(wrong.body)).not.toMatch(/totp_secret|otpauth/)
    // The right password: the secret for this operator, no session yet.
    const offer = await attempt({ password: PASSWORD })
    expect(offer.status, JSON.stringify(offer.body)).toBe(202)
    expect(offer.headers.get("cache-control")).toBe("no-store")
    expect(offer.headers.get("set-cookie")).toBeNull()
    expect(offer.body).toMatchObject({ estado: "totp_por_configurar" })
    expect(offer.body.totp_secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(offer.body.totp_uri).toContain(`secret=${offer.body.totp_secret}`)
    expect(offer.body.totp_secret).not.toBe(created.body.totp_secret)
    // A code of the old authenticator does not enrol.
    expect(
      (
        await attempt({
          password: PASSWORD,
          codigo: totpCode(created.body.totp_secret, totpStep(Date.now()))
        })
      ).status
    ).toBe(401)
    // The first good code of the secret shown opens the session and ends the enrolment.
    const step = totpStep(Date.now())
    const enrolled = await attempt({ password: PASSWORD, codigo: totpCode(offer.body.totp_secret, step) })
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200)
    expect(enrolled.body.operador.email).toBe(email)
    const listed = (await riesgo("GET", "/admin/v1/operador/operadores")).body.data.find(
      (o: { email: string }) => o.email === email
    )
    expect(listed.totp_por_configurar).toBe(false)
    // Enrolled: no code is a refusal again, never a new secret.
    const after = await attempt({ password: PASSWORD })
    expect(after.status).toBe(401)
    expect(after.body.totp_secret).toBeUndefined()
    expect(
      (await attempt({ password: PASSWORD, codigo: totpCode(offer.body.totp_secret, step + 1) })).status
    ).toBe(200)
    // The secret is in no audit row.
    const audit = await db<{ row: string }>("select row_to_json(a)::text as row from auditoria a")
    for (const { row } of audit) expect(row).not.toContain(offer.body.totp_secret)
  })
})
