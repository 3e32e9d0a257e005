/**
 * The portal's roles, its webhooks and its link history in real Chromium against the built
 * server: the demo owner `npm start` prints signs in; a `cajero` sees no Desarrolladores and
 * cannot reach it by URL (the API answers 403 too); `lectura` sees no create buttons and the API
 * refuses its writes; an owner in test mode, with no live key, registers a webhook to a local
 * receiver, edits it, tests it ("Probar"), sees the delivery and sends it again; a simulated
 * payment shows in the link's timeline with its notice's delivery, and the event log re-sends
 * it; CSRF and session fixation from the page; 10,000 links stay a windowed list. axe on every
 * screen, screenshots at 1280 and 360 px in artifacts/.
 */
import { randomUUID } from "node:crypto"
import { mkdirSync, readFileSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import Pg from "pg"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashPassword } from "../../apps/server/src/platform/Passwords.js"
import { call, type Stack, startStack } from "../support/stack.js"

const ARTIFACTS = resolve(__dirname, "artifacts")
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const PASSWORD = "clave-de-roles-1"

let stack: Stack
let browser: Browser
let db: Pg.Client
let receiver: Server
let receiverUrl = ""
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = []

beforeAll(async () => {
  // Its portal screens now read totals and follow changes too (issue 45): more requests per minute.
  stack = await startStack({ SWITCH_WEBHOOK_ALLOW_PRIVATE: "1", SWITCH_API_POR_MINUTO: "100000" })
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  db = new Pg.Client({
    connectionString: `postgres://switch:switch@127.0.0.1:${stack.env.SWITCH_PG_PORT}/switch`
  })
  await db.connect()
  receiver = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(200, { "content-type": "text/plain" })
      response.end("ok")
    })
  })
  await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", () => done()))
  const address = receiver.address()
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/avisos`
  mkdirSync(ARTIFACTS, { recursive: true })
})
afterAll(async () => {
  await new Promise<void>((done) => (receiver ? receiver.close(() => done()) : done()))
  await db?.end()
  await browser?.close()
  await stack?.stop()
})

const axeViolations = async (page: Page): Promise<Array<string>> => {
  await page.evaluate(AXE)
  return page.evaluate<Array<string>>(
    `axe.run(document, { rules: { "target-size": { enabled: true } } }).then((r) => r.violations.map((v) =>
      v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))`
  )
}

const open = async (
  width: number,
  setup?: (context: import("playwright-core").BrowserContext) => Promise<void>
) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  await setup?.(context)
  const page = await context.newPage()
  const errors: Array<string> = []
  // The 401 of the first "is there a session?" and the 403s this suite provokes on purpose.
  page.on("console", (m) => {
    if (m.type() === "error" && !/status of (401|403)/.test(m.text())) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  page.on("dialog", (d) => void d.accept())
  return { page, context, errors, close: () => context.close() }
}

/** Checks a screen: its title, no axe violations, no sideways scrolling, and a screenshot. */
const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando…$/ }).count()).toBe(0)
  expect(await axeViolations(page), `${title}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${title}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `roles-${shot}.png`), fullPage: true })
}

const signIn = async (page: Page, email: string, password = PASSWORD) => {
  await page.goto(`${stack.url}/panel/ingresar`)
  await page.getByLabel("Correo").fill(email)
  await page.getByLabel("Contraseña").fill(password)
  await page.getByRole("button", { name: "Entrar" }).click()
  await screen(page, "Inicio", `inicio-${email.split("@")[0]}-${page.viewportSize()?.width}`)
}

/** A request from the page's own context (its cookie), with the session's CSRF token unless `csrf` is false. */
const fromPage = (page: Page, method: string, path: string, body?: unknown, csrf = true) =>
  page.evaluate(
    async ({ method, path, body, csrf }) => {
      const token = csrf
        ? ((await (await fetch("/switch/v1/sesion")).json()) as { csrf_token: string }).csrf_token
        : undefined
      const response = await fetch(path, {
        method,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(token === undefined ? {} : { "x-csrf-token": token })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return { status: response.status, body: (await response.json()) as { error?: string } }
    },
    { method, path, body, csrf }
  )

const codigo = `roles${Date.now().toString(36)}`
const owner = `${codigo}@dueno.example`
let testKey = ""
const team = { cajero: `cajero-${codigo}@equipo.example`, lectura: `lectura-${codigo}@equipo.example` }

describe("roles, webhooks and a link's history in the portal", () => {
  beforeAll(async () => {
    const made = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
      body: {
        codigo,
        nombre: "Ferretería Roles",
        identificacion: "J-07013380-5",
        email: owner,
        password: PASSWORD
      }
    })
    expect(made.status).toBe(201)
    testKey = `${codigo}:${made.body.api_key}`
    for (const [rol, email] of Object.entries(team))
      await db.query(
        `insert into usuarios (id, comercio_id, email, hash, rol) select $1, id, $2, $3, $4 from comercios where codigo = $5`,
        [randomUUID(), email, await hashPassword(PASSWORD), rol, codigo]
      )
  })

  it("the demo owner npm start prints signs in to the portal", async () => {
    const printed = /Panel demo\s+(\S+@\S+) \/ (\S+)/.exec(stack.output())
    expect(printed, stack.output()).not.toBeNull()
    const { page, errors, close } = await open(1280)
    try {
      await signIn(page, printed?.[1] ?? "", printed?.[2] ?? "")
      await expect.poll(() => page.getByText("Tienda Demo").count()).toBeGreaterThan(0)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  for (const width of [1280, 360])
    it(`a cajero sees no Desarrolladores and cannot reach it by URL; the API refuses it too (${width} px)`, async () => {
      const { page, errors, close } = await open(width)
      try {
        await signIn(page, team.cajero)
        // On a phone the sections sit behind "Menú" (issue 45).
        if (width === 360) await page.getByRole("button", { name: "Menú" }).click()
        expect(
          await page.getByRole("navigation", { name: "Secciones" }).getByRole("link").allTextContents()
        ).not.toContain("Desarrolladores")
        await expect.poll(() => page.getByRole("link", { name: "Links", exact: true }).count()).toBe(1)
        for (const [path, title, shot] of [
          ["/desarrolladores", "Desarrolladores", "cajero-desarrolladores"],
          ["/desarrolladores/eventos", "Registro de avisos", "cajero-eventos"],
          [`/desarrolladores/webhooks/${randomUUID()}`, "Webhook", "cajero-webhook"]
        ] as const) {
          await page.goto(`${stack.url}/panel${path}`)
          await screen(page, title, `${shot}-${width}`)
          await expect.poll(() => page.getByText(/^Solo el propietario del comercio/).count()).toBe(1)
          expect(await page.getByRole("button", { name: "Crear llave" }).count()).toBe(0)
        }
        for (const path of ["/switch/v1/llaves", "/switch/v1/webhooks", "/switch/v1/eventos"]) {
          const reply = await fromPage(page, "GET", path)
          expect(reply, path).toEqual({
            status: 403,
            body: expect.objectContaining({ error: "rol_no_permitido" })
          })
        }
        const write = await fromPage(page, "POST", "/switch/v1/webhooks", {
          url: receiverUrl,
          eventos: ["*"]
        })
        expect(write.status).toBe(403)
        // A cajero makes links.
        expect(
          (await fromPage(page, "POST", "/switch/v1/links", { monto: 2, concepto: "Del cajero" })).status
        ).toBe(201)
        expect(errors).toEqual([])
      } finally {
        await close()
      }
    })

  for (const width of [1280, 360])
    it(`lectura sees no create or cancel buttons, and the API refuses its writes (${width} px)`, async () => {
      const link = await call(stack.url, "POST", "/switch/v1/links", {
        key: testKey,
        body: { monto: 9, concepto: `Para leer ${width}` }
      })
      const { page, errors, close } = await open(width)
      try {
        await signIn(page, team.lectura)
        if (width === 360) await page.getByRole("button", { name: "Menú" }).click()
        await page.getByRole("link", { name: "Links", exact: true }).click()
        await screen(page, "Links", `lectura-links-${width}`)
        await expect.poll(() => page.getByRole("link", { name: `Para leer ${width}` }).count()).toBe(1)
        expect(await page.getByRole("link", { name: "Crear link" }).count()).toBe(0)
        await page.goto(`${stack.url}/panel/links/nuevo`)
        await screen(page, "Crear link", `lectura-crear-${width}`)
        expect(await page.getByRole("button", { name: "Crear link" }).count()).toBe(0)
        await page.goto(`${stack.url}/panel/links/${link.body.id}`)
        await screen(page, "Detalle del link", `lectura-detalle-${width}`)
        await expect.poll(() => page.getByRole("heading", { name: "Historia" }).count()).toBe(1)
        expect(await page.getByRole("button", { name: "Cancelar link" }).count()).toBe(0)
        const refused = await fromPage(page, "POST", "/switch/v1/links", { monto: 1, concepto: "No" })
        expect(refused).toEqual({ status: 403, body: expect.objectContaining({ error: "rol_no_permitido" }) })
        const cancel = await fromPage(page, "POST", `/switch/v1/links/${link.body.id}/cancelar`)
        expect(cancel.status).toBe(403)
        expect(
          (await call(stack.url, "GET", `/switch/v1/links/${link.body.id}`, { key: testKey })).body.estado
        ).toBe("pendiente")
        expect(errors).toEqual([])
      } finally {
        await close()
      }
    })

  it("an owner in test mode, without a live key, registers, edits, tests and re-sends a webhook; a payment shows in the link's timeline and the event log re-sends its notice (1280 px)", async () => {
    expect((await call(stack.url, "GET", "/switch/v1/llaves", { key: testKey })).body).not.toContainEqual(
      expect.objectContaining({ mode: "live" })
    )
    const { page, errors, close } = await open(1280)
    try {
      await signIn(page, owner)
      await page.getByRole("link", { name: "Desarrolladores" }).click()
      await screen(page, "Desarrolladores", "desarrolladores-1280")
      await page.getByLabel("Dirección https del webhook").fill(receiverUrl)
      await page.getByRole("button", { name: "Registrar webhook" }).click()
      await expect.poll(() => page.locator(".aviso code.llave").textContent()).toMatch(/^whsec_/)
      await page.getByRole("link", { name: /^Editar y ver entregas/ }).click()
      await screen(page, "Webhook", "webhook-1280")
      await expect.poll(() => page.getByText("Aún no hay entregas.", { exact: false }).count()).toBe(1)

      // Probar: the receiver gets webhook.test, the delivery is listed, and Reenviar sends it again.
      await page.getByRole("button", { name: "Probar" }).click()
      await expect.poll(() => page.getByRole("status").filter({ hasText: "Aviso de prueba" }).count()).toBe(1)
      await expect
        .poll(() => received.filter((r) => r.headers["x-service-event"] === "webhook.test").length)
        .toBe(1)
      const row = page.locator("tbody tr").first()
      await expect.poll(() => row.locator("td").nth(1).textContent()).toBe("Entregado")
      expect(await row.locator("td").nth(2).textContent()).toBe("1")
      await screen(page, "Webhook", "webhook-entregas-1280")
      await row.getByRole("button", { name: /^Reenviar/ }).click()
      await expect
        .poll(() => received.filter((r) => r.headers["x-service-event"] === "webhook.test").length)
        .toBe(2)
      await expect.poll(() => row.locator("td").nth(2).textContent()).toBe("2")
      const tests = received.filter((r) => r.headers["x-service-event"] === "webhook.test")
      expect(JSON.parse(tests[1]?.body ?? "{}").id).toBe(JSON.parse(tests[0]?.body ?? "{}").id)

      // Edit: only link.pagado.
      await page.getByLabel("Todos (*)").uncheck()
      await page.getByLabel("link.pagado").check()
      await page.getByRole("button", { name: "Guardar cambios" }).click()
      await expect.poll(() => page.getByText("Cambios guardados.").count()).toBe(1)
      const hooks = await fromPage(page, "GET", "/switch/v1/webhooks")
      expect(hooks.body).toEqual([
        expect.objectContaining({ url: receiverUrl, eventos: ["link.pagado"], estado: "activo" })
      ])

      // A link with expiry, return URLs and metadata; paid by simulation; its timeline.
      await page.goto(`${stack.url}/panel/links/nuevo`)
      await screen(page, "Crear link", "crear-completo-1280")
      await page.getByLabel("Monto (Bs)").fill("1.500,25")
      await page.getByLabel("Concepto").fill("Taladro percutor")
      await page.getByLabel("Vence en").selectOption("72")
      await page.getByLabel("Al pagar, volver a").fill("https://ferreteria.example/gracias")
      await page.getByRole("button", { name: "Agregar dato" }).click()
      await page.getByLabel("Clave 1").fill("pedido")
      await page.getByLabel("Valor 1").fill("F-77")
      await page.getByRole("button", { name: "Crear link" }).click()
      await screen(page, "Detalle del link", "detalle-nuevo-1280")
      const linkId = page.url().split("/").pop() ?? ""
      const stored = await call(stack.url, "GET", `/switch/v1/links/${linkId}`, { key: testKey })
      expect(stored.body).toMatchObject({
        monto: 1500.25,
        success_url: "https://ferreteria.example/gracias",
        metadata: { pedido: "F-77" },
        origen: "panel"
      })
      const hours = (Date.parse(stored.body.expires_at) - Date.parse(stored.body.created_at)) / 3_600_000
      expect(Math.round(hours)).toBe(72)
      await expect.poll(() => page.locator(".historia li.paso").count()).toBe(1)

      const simulated = await fromPage(page, "POST", `/switch/v1/links/${linkId}/simular`, {
        resultado: "pagado"
      })
      expect(simulated.status).toBe(200)
      await expect
        .poll(() => received.filter((r) => r.headers["x-service-event"] === "link.pagado").length)
        .toBe(1)
      await page.reload()
      await screen(page, "Detalle del link", "detalle-pagado-1280")
      const pasos = page.locator(".historia li.paso > span")
      await expect
        .poll(() => pasos.allTextContents())
        .toEqual(["Link creado", "Pagado", "Aviso link.pagado enviado"])
      await expect.poll(() => page.locator(".historia .paso-aviso").textContent()).toContain(receiverUrl)
      expect(await page.locator(".historia .paso-aviso .estado").textContent()).toBe("Entregado")

      // The event log, by type, re-sends the notice.
      await page.goto(`${stack.url}/panel/desarrolladores/eventos`)
      await screen(page, "Registro de avisos", "eventos-1280")
      await page.getByLabel("Tipo de aviso").selectOption("link.pagado")
      await page.getByRole("button", { name: "Filtrar" }).click()
      await page.waitForURL(/\/panel\/desarrolladores\/eventos\?evento=link\.pagado$/)
      await expect.poll(() => page.locator("tbody tr[data-fila]").count()).toBe(1)
      await page.getByRole("button", { name: /^Reenviar/ }).click()
      await expect
        .poll(() => page.getByRole("status").filter({ hasText: "reenviado a 1 webhook" }).count())
        .toBe(1)
      await expect
        .poll(() => received.filter((r) => r.headers["x-service-event"] === "link.pagado").length)
        .toBe(2)
      await screen(page, "Registro de avisos", "eventos-reenviado-1280")
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("the owner's new screens at 360 px", async () => {
    const { page, errors, close } = await open(360)
    try {
      await signIn(page, owner)
      const hooks = await fromPage(page, "GET", "/switch/v1/webhooks")
      const hook = (hooks.body as unknown as Array<{ id: string }>)[0]
      await page.goto(`${stack.url}/panel/desarrolladores/webhooks/${hook?.id}`)
      await screen(page, "Webhook", "webhook-360")
      await page.goto(`${stack.url}/panel/desarrolladores/eventos`)
      await screen(page, "Registro de avisos", "eventos-360")
      await page.goto(`${stack.url}/panel/links/nuevo`)
      await page.getByLabel("Vence en").selectOption("exacta")
      await page.getByRole("button", { name: "Agregar dato" }).click()
      await screen(page, "Crear link", "crear-completo-360")
      const links = await fromPage(page, "GET", "/switch/v1/links?estado=pagado")
      const paid = (links.body as unknown as Array<{ id: string }>)[0]
      await page.goto(`${stack.url}/panel/links/${paid?.id}`)
      await screen(page, "Detalle del link", "detalle-pagado-360")
      await expect.poll(() => page.locator(".historia li.paso").count()).toBe(3)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("refuses, from the page, an unsafe request without the CSRF header; a cookie set before sign-in is not the session after", async () => {
    const planted = "fijada-por-un-atacante-0123456789"
    const { page, context, errors, close } = await open(1280, (c) =>
      c.addCookies([{ name: "switch_sesion", value: planted, url: stack.url }])
    )
    try {
      await signIn(page, owner)
      const after = (await context.cookies(stack.url)).filter((c) => c.name === "switch_sesion")
      expect(after).toHaveLength(1)
      expect(after[0]?.value).not.toBe(planted)
      expect(after[0]?.httpOnly).toBe(true)
      // The planted value is no session at all.
      const stranger = await fetch(`${stack.url}/switch/v1/sesion`, {
        headers: { cookie: `switch_sesion=${planted}` }
      })
      expect(stranger.status).toBe(401)

      const before = (await call(stack.url, "GET", "/switch/v1/links?limit=200", { key: testKey })).body
        .length
      const missing = await fromPage(
        page,
        "POST",
        "/switch/v1/links",
        { monto: 3, concepto: "Sin CSRF" },
        false
      )
      expect(missing).toEqual({ status: 403, body: expect.objectContaining({ error: "csrf_invalido" }) })
      expect((await call(stack.url, "GET", "/switch/v1/links?limit=200", { key: testKey })).body.length).toBe(
        before
      )
      const withToken = await fromPage(page, "POST", "/switch/v1/links", { monto: 3, concepto: "Con CSRF" })
      expect(withToken.status).toBe(201)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("keeps 10,000 links a short document: only the rows near the viewport are rendered, and more load as it scrolls", async () => {
    await db.query(
      `insert into links (id, comercio_id, mode, monto, concepto, expires_at, origen, created_at)
       select gen_random_uuid(), c.id, 'test', 100 + n, 'Lote grande ' || n, now() + interval '1 day', 'api',
         now() - make_interval(secs => n)
       from comercios c, generate_series(1, 10000) n where c.codigo = $1`,
      [codigo]
    )
    const { page, errors, close } = await open(1280)
    try {
      await signIn(page, owner)
      await page.goto(`${stack.url}/panel/links`)
      await screen(page, "Links", "links-grandes-1280")
      const rendered = () => page.locator("tbody tr[data-fila]").count()
      expect(await rendered()).toBeLessThanOrEqual(60)
      // The total of all of them, of which the first 100 are loaded.
      await expect
        .poll(() => page.getByText(/^10\.0\d\d links; se muestran 100, bajando se cargan más\.$/).count())
        .toBe(1)
      const started = Date.now()
      for (let i = 0; i < 12; i++) {
        await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        await page.waitForTimeout(150)
      }
      await expect.poll(() => page.locator("table.tabla").getAttribute("aria-rowcount")).not.toBe("101")
      const loaded = Number((await page.locator("table.tabla").getAttribute("aria-rowcount")) ?? "0") - 1
      expect(loaded).toBeGreaterThan(100)
      expect(await rendered()).toBeLessThanOrEqual(60)
      expect(Date.now() - started).toBeLessThan(30_000)
      // The rows on screen are the ones at the scroll position, not the first ones.
      const first = await page.locator("tbody tr[data-fila]").first().getAttribute("aria-rowindex")
      expect(Number(first)).toBeGreaterThan(10)
      await page.evaluate("window.scrollTo(0, 0)")
      await expect
        .poll(() => page.locator("tbody tr[data-fila]").first().getAttribute("aria-rowindex"))
        .toBe("2")
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})
