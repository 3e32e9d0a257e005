/**
 * The portal's Lotes screens in real Chromium against the built server: a CSV of 500 rows with
 * two bad rows (the preview shows exactly those two, creating makes 498 links, the result CSV
 * downloads with each row's link), an Excel file read through the lazily loaded reader, the
 * list and a batch's detail, cancelling its open part; axe on every screen, screenshots at
 * 1280 and 360 px (artifacts/lotes-*.png), no console errors.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { deflateRawSync } from "node:zlib"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ADMIN_TOKEN, call, OWN_ACCOUNT, type Stack, startStack } from "../support/stack.js"

const ARTIFACTS = resolve(__dirname, "artifacts")
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const PASSWORD = "clave-de-lotes-1"

let stack: Stack
let browser: Browser
/** The merchant's test key, from its sign-up. */
let key = ""
const codigo = `lotes${Date.now().toString(36)}`
const email = `${codigo}@tienda.example`

beforeAll(async () => {
  stack = await startStack()
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
  })
  mkdirSync(ARTIFACTS, { recursive: true })
  const reg = await call(stack.url, "POST", "/switch/v1/comercios/registrar", {
    body: { codigo, nombre: "Colegio San José", identificacion: "J-07013380-5", email, password: PASSWORD }
  })
  expect(reg.status).toBe(201)
  key = `${codigo}:${reg.body.api_key}`
})
afterAll(async () => {
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

const open = async (width: number) => {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().includes("status of 401")) errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  page.on("dialog", (d) => void d.accept())
  await page.goto(`${stack.url}/panel/ingresar`)
  await page.getByLabel("Correo").fill(email)
  await page.getByLabel("Contraseña").fill(PASSWORD)
  await page.getByRole("button", { name: "Entrar" }).click()
  await expect.poll(() => page.locator("h1").textContent()).toBe("Inicio")
  return { page, errors, close: () => context.close() }
}

const screen = async (page: Page, title: string, shot: string) => {
  await expect.poll(() => page.locator("h1").textContent()).toBe(title)
  await expect.poll(() => page.locator('[role="status"]', { hasText: /^Cargando…$/ }).count()).toBe(0)
  expect(await axeViolations(page), `${title}: axe`).toEqual([])
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")
  expect(overflow, `${title}: sideways scroll`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: resolve(ARTIFACTS, `lotes-${shot}.png`), fullPage: true })
}

const cookieOf = async (page: Page) =>
  (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ")

/** 500 rows as Excel in Spanish writes them (`;`, comma decimals); rows 102 and 302 are bad. */
const csv500 = () => {
  const lines = ["monto;concepto;referencia;nombre;telefono"]
  for (let i = 1; i <= 500; i++) {
    const row = i + 1
    const monto = row === 102 ? "doce" : `${(1000 + i).toLocaleString("de-DE")},50`
    const concepto = row === 302 ? "" : `Mensualidad ${i}`
    lines.push(`${monto};${concepto};REF-${i};Representante ${i};0414${String(1000000 + i)}`)
  }
  return `${lines.join("\r\n")}\r\n`
}

/** A two-row .xlsx (a zip, deflated), as the reader in the browser must read it. */
const xlsx = (): Buffer => {
  const files: Record<string, string> = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types/>',
    "xl/sharedStrings.xml":
      "<sst><si><t>monto</t></si><si><t>concepto</t></si><si><t>Inscripción</t></si><si><t>Uniforme &amp; libros</t></si></sst>",
    "xl/worksheets/sheet1.xml":
      '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
      '<row r="2"><c r="A2"><v>150.75</v></c><c r="B2" t="s"><v>2</v></c></row>' +
      '<row r="3"><c r="A3"><v>80</v></c><c r="B3" t="s"><v>3</v></c></row></sheetData></worksheet>'
  }
  const locals: Array<Buffer> = []
  const centrals: Array<Buffer> = []
  let offset = 0
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = Buffer.from(name)
    const data = deflateRawSync(Buffer.from(text))
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(Buffer.byteLength(text), 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(Buffer.byteLength(text), 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += 30 + nameBytes.length + data.length
  }
  const dir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(files).length, 8)
  end.writeUInt16LE(Object.keys(files).length, 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, dir, end])
}

/** A CSV's rows (the result file quotes no cell here: no commas in these values). */
const rowsOf = (text: string) =>
  text
    .replace(/^\ufeff/, "")
    .trim()
    .split("\r\n")
    .map((line) => line.split(","))

describe("Lotes in the portal", () => {
  it("a CSV of 500 rows with two bad ones: the preview shows those two, creating makes 498 links, the result downloads (1280 px)", async () => {
    const { page, errors, close } = await open(1280)
    try {
      await page.getByRole("link", { name: "Lotes" }).click()
      await screen(page, "Lotes", "vacio-1280")
      await page.getByRole("link", { name: "Crear lote" }).click()
      await screen(page, "Crear lote", "nuevo-1280")
      await page.getByLabel("Archivo").setInputFiles({
        name: "mensualidades-noviembre.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(csv500())
      })
      const errores = page.getByRole("table", { name: "Filas con errores" })
      await expect.poll(() => errores.locator("tbody tr").count()).toBe(2)
      expect(await errores.locator("tbody tr").allTextContents()).toEqual([
        "102Monto «doce» no es un número con hasta 2 decimales",
        "302Falta el concepto"
      ])
      expect(await page.locator(".cifras").textContent()).toContain("Válidas498")
      // Nothing is created before the merchant confirms.
      const cookie = await cookieOf(page)
      expect((await call(stack.url, "GET", "/switch/v1/lotes", { headers: { cookie } })).body).toEqual([])
      expect(await page.getByLabel("Nombre del lote").inputValue()).toBe("mensualidades-noviembre")
      await screen(page, "Crear lote", "vista-previa-1280")

      await page.getByRole("button", { name: "Crear 498 links" }).click()
      await expect
        .poll(() => page.getByRole("heading", { name: "Listo" }).count(), { timeout: 60_000 })
        .toBe(1)
      expect(await page.locator("progress").getAttribute("value")).toBe("498")
      expect(await page.getByText("Se crearon 498 links en 1 lote.").count()).toBe(1)
      await screen(page, "Crear lote", "creado-1280")

      const lotes = (await call(stack.url, "GET", "/switch/v1/lotes", { headers: { cookie } })).body
      expect(lotes).toHaveLength(1)
      const lote = (await call(stack.url, "GET", `/switch/v1/lotes/${lotes[0].id}`, { headers: { cookie } }))
        .body
      expect(lote.items).toHaveLength(498)
      expect(lote.nombre).toBe("mensualidades-noviembre")
      expect(lote.monto_total).toBe(
        Array.from({ length: 500 }, (_, i) => i + 1)
          .filter((i) => i !== 101 && i !== 301)
          .reduce((sum, i) => sum + 1000 + i + 0.5, 0)
      )

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Descargar resultado (CSV)" }).click()
      ])
      expect(download.suggestedFilename()).toBe("mensualidades-noviembre-resultado.csv")
      const rows = rowsOf(readFileSync(await download.path(), "utf8"))
      expect(rows[0]).toEqual([
        "fila",
        "lote_id",
        "link_id",
        "url",
        "estado",
        "monto",
        "concepto",
        "referencia_externa",
        "cliente_nombre",
        "cliente_telefono",
        "idempotency_key"
      ])
      const data = rows.slice(1)
      expect(data).toHaveLength(498)
      expect(data.map((r) => r[0])).not.toContain("102")
      expect(data.map((r) => r[0])).not.toContain("302")
      expect(new Set(data.map((r) => r[2]))).toEqual(
        new Set(lote.items.map((i: { link_id: string }) => i.link_id))
      )
      const first = data[0] ?? []
      expect(first.slice(0, 2)).toEqual(["2", lote.id])
      expect(first[3]).toMatch(/^https?:\/\//)
      expect(first.slice(4, 10)).toEqual([
        "pendiente",
        "1001.50",
        "Mensualidad 1",
        "REF-1",
        "Representante 1",
        "04141000001"
      ])

      // The list and the detail, then the open part cancelled.
      await page.getByRole("link", { name: "mensualidades-noviembre" }).click()
      await screen(page, "Detalle del lote", "detalle-1280")
      expect(await page.locator(".tabla tbody tr").count()).toBe(50)
      expect(await page.getByText("Página 1 de 10").count()).toBe(1)
      await page.getByRole("link", { name: "← Volver a los lotes" }).click()
      await screen(page, "Lotes", "lista-1280")
      expect(await page.locator(".tabla tbody tr").count()).toBe(1)
      expect(await page.locator(".tabla tbody").textContent()).toContain("498")
      await page.getByRole("link", { name: "mensualidades-noviembre" }).click()
      await page.getByRole("button", { name: "Cancelar 498 links pendientes" }).click()
      await expect
        .poll(() => page.locator(".aviso").textContent())
        .toBe("Se cancelaron 498 links; 0 no se podían cancelar.")
      await screen(page, "Detalle del lote", "cancelado-1280")
      const after = (await call(stack.url, "GET", `/switch/v1/lotes/${lote.id}`, { headers: { cookie } }))
        .body
      expect(after.por_estado).toMatchObject({ cancelado: 498, pendiente: 0 })
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("reads an Excel file in the browser and works on a 360-px phone", async () => {
    const { page, errors, close } = await open(360)
    try {
      await page.goto(`${stack.url}/panel/lotes`)
      await screen(page, "Lotes", "lista-360")
      await page.goto(`${stack.url}/panel/lotes/nuevo`)
      await screen(page, "Crear lote", "nuevo-360")
      await page.getByLabel("Archivo").setInputFiles({
        name: "inscripciones.xlsx",
        mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        buffer: xlsx()
      })
      await expect.poll(() => page.getByText("Todas las filas están bien.").count()).toBe(1)
      expect(await page.locator(".cifras").textContent()).toContain("Bs 230,75")
      await screen(page, "Crear lote", "vista-previa-360")
      await page.getByRole("button", { name: "Crear 2 links" }).click()
      await expect.poll(() => page.getByRole("heading", { name: "Listo" }).count()).toBe(1)
      await screen(page, "Crear lote", "creado-360")
      await page.getByRole("link", { name: "inscripciones" }).click()
      await screen(page, "Detalle del lote", "detalle-360")
      expect(await page.getByText("Uniforme & libros").count()).toBe(1)
      expect(await page.getByText("Bs 150,75").count()).toBe(1)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })

  it("Transacciones (filters, the streamed CSV export), Clientes, Liquidaciones, Inicio and Configuración with data, at 1280 and 360 px", async () => {
    // Approved with immediate settlement, so each paid link is settled (simulated in test mode).
    const headers = { "x-admin-token": ADMIN_TOKEN }
    const approved = await call(stack.url, "POST", `/admin/v1/comercios/${codigo}/aprobar`, {
      headers,
      body: { cuenta_liquidacion: OWN_ACCOUNT }
    })
    expect(approved.status).toBe(200)
    const patched = await call(stack.url, "PATCH", `/admin/v1/comercios/${codigo}`, {
      headers,
      body: { liquidacion_inmediata: true }
    })
    expect(patched.status).toBe(200)
    // Three simulated payments and one through the payment page whose payer becomes a customer.
    for (const [monto, resultado] of [
      [100, "pagado"],
      [250.5, "pagado"],
      [75, "rechazado"]
    ] as const) {
      const link = await call(stack.url, "POST", "/switch/v1/links", {
        key,
        body: { monto, concepto: "Servicio" }
      })
      const simulated = await call(stack.url, "POST", `/switch/v1/links/${link.body.id}/simular`, {
        key,
        body: { resultado }
      })
      expect(simulated.status).toBe(200)
    }
    const paid = await call(stack.url, "POST", "/switch/v1/links", {
      key,
      body: { monto: 1234.56, concepto: "Matrícula" }
    })
    // The payer, in a browser of their own.
    const payerContext = await browser.newContext()
    const payer = await payerContext.newPage()
    await payer.goto(`${stack.url}/l/${paid.body.id}`)
    await payer.getByLabel("Tu banco", { exact: true }).selectOption("0102")
    await payer.getByLabel("Tipo de documento").selectOption("V")
    await payer.getByLabel("Número de documento").fill("12345678")
    await payer.getByLabel("Teléfono registrado en tu banco").fill("04141234567")
    await payer.getByLabel(/Quiero ser cliente/).check()
    await payer.getByLabel(/Tu nombre/).fill("Ana Pérez")
    await payer.getByLabel("Código de 8 dígitos de tu banco").fill("12345678")
    await payer.locator("#pagar").click()
    await payer.locator("#recibo").waitFor()
    await payerContext.close()
    const { page, errors, close } = await open(1280)
    try {
      await page.goto(`${stack.url}/panel/transacciones`)
      await screen(page, "Transacciones", "transacciones-1280")
      const listed = await call(stack.url, "GET", "/switch/v1/transacciones?limit=200", { key })
      expect(listed.body.length).toBeGreaterThanOrEqual(3)
      expect(await page.locator(".tabla tbody tr").count()).toBe(listed.body.length)
      expect(await page.getByText("Bs 1.234,56").count()).toBeGreaterThan(0)
      await page.getByLabel("Estado").selectOption("LIQUIDADA")
      await page.getByRole("button", { name: "Filtrar" }).click()
      await page.waitForURL(/\/panel\/transacciones\?estado=LIQUIDADA$/)
      const liquidated = listed.body.filter((t: { estado: string }) => t.estado === "LIQUIDADA")
      await expect.poll(() => page.locator(".tabla tbody tr").count()).toBe(liquidated.length)
      await screen(page, "Transacciones", "transacciones-filtradas-1280")
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Exportar CSV" }).click()
      ])
      expect(download.suggestedFilename()).toBe("transacciones-test.csv")
      const rows = rowsOf(readFileSync(await download.path(), "utf8"))
      expect(rows[0]).not.toContain("banco")
      expect(
        rows
          .slice(1)
          .map((r) => r[0])
          .sort()
      ).toEqual(liquidated.map((t: { id: string }) => t.id).sort())
      expect(new Set(rows.slice(1).map((r) => r[4]))).toEqual(new Set(["LIQUIDADA"]))

      await page.getByRole("link", { name: "Clientes" }).click()
      await screen(page, "Clientes", "clientes-1280")
      await expect.poll(() => page.locator(".tabla tbody tr").count()).toBe(1)
      expect(await page.getByText("Ana").count()).toBe(0)

      await page.getByRole("link", { name: "Liquidaciones" }).click()
      await screen(page, "Liquidaciones", "liquidaciones-1280")
      const settlements = (await call(stack.url, "GET", "/switch/v1/liquidaciones?limit=200", { key })).body
      expect(settlements.length).toBe(3)
      await expect.poll(() => page.locator(".tabla tbody tr").count()).toBe(3)
      expect(await page.getByRole("link", { name: "Matrícula" }).count()).toBe(1)
      await page.getByLabel("Estado").selectOption("REVISION")
      await page.waitForURL(/\/panel\/liquidaciones\?estado=REVISION$/)
      await expect
        .poll(() => page.locator(".tabla tbody tr").count())
        .toBe(settlements.filter((l: { estado: string }) => l.estado === "REVISION").length)

      // Inicio: today's collections (the three paid links), the week's chart, the latest payments.
      await page.getByRole("link", { name: "Inicio" }).click()
      await screen(page, "Inicio", "inicio-1280")
      expect(await page.locator(".cifras").textContent()).toContain("Cobrado hoyBs 1.585,06")
      expect(await page.locator(".cifras").textContent()).toContain("Pagos hoy3")
      const chart = page.getByRole("img", {
        name: /Cobrado por día en los últimos 7 días: Bs 1\.585,06 en total/
      })
      expect(await chart.count()).toBe(1)
      expect(await page.locator(".grafico rect.barra").count()).toBe(7)
      expect(await page.getByRole("link", { name: "Matrícula" }).count()).toBe(1)

      // Configuración: read only, but for the tips card and the daily summary's switch the owner
      // sets (issues 33 and 45).
      await page.getByRole("link", { name: "Configuración" }).click()
      await screen(page, "Configuración", "configuracion-1280")
      expect(await page.getByText("Inmediata, al pagarse cada link").count()).toBe(1)
      expect(await page.getByRole("region", { name: "Propinas" }).count()).toBe(1)
      const controls = "main input, main select, main button"
      const tips = 'section[aria-labelledby="t-propinas"]'
      expect(await page.locator(controls).count()).toBe(
        (await page.locator(`${tips} input, ${tips} select, ${tips} button`).count()) +
          (await page.locator("main #resumen-diario").count())
      )
      expect(errors).toEqual([])
    } finally {
      await close()
    }
    const phone = await open(360)
    try {
      await phone.page.goto(`${stack.url}/panel/transacciones`)
      await screen(phone.page, "Transacciones", "transacciones-360")
      await phone.page.goto(`${stack.url}/panel/clientes`)
      await screen(phone.page, "Clientes", "clientes-360")
      await phone.page.goto(`${stack.url}/panel/liquidaciones`)
      await screen(phone.page, "Liquidaciones", "liquidaciones-360")
      await phone.page.goto(`${stack.url}/panel`)
      await screen(phone.page, "Inicio", "inicio-360")
      await phone.page.goto(`${stack.url}/panel/configuracion`)
      await screen(phone.page, "Configuración", "configuracion-360")
      expect(phone.errors).toEqual([])
    } finally {
      await phone.close()
    }
  })
})
