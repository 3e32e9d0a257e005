import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as BankCalendar from "./BankCalendar.js"

const utc = (iso: string): number => Date.parse(iso)
const right = <A, E>(e: Either.Either<A, E>): A => Either.getOrThrowWith(e, (err) => new Error(String(err)))

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Instants from 1971 to 2100 at millisecond precision. */
const instant = fc.integer({ min: utc("1971-01-01T00:00:00Z"), max: utc("2100-01-01T00:00:00Z") })
/** Whole-second instants over the same range. */
const wholeSecond = instant.map((ms) => Math.floor(ms / 1000) * 1000)

/** Caracas ms-of-day of an instant, computed independently through the UTC clock. */
const caracasMsOfDay = (ms: number): number => {
  const d = new Date(ms)
  const utcMsOfDay = ((d.getUTCHours() * 60 + d.getUTCMinutes()) * 60 + d.getUTCSeconds()) * 1000
  return (utcMsOfDay + d.getUTCMilliseconds() - 4 * HOUR + DAY) % DAY
}

describe("BankCalendar: Caracas time", () => {
  it("Caracas is UTC-4: 23:15 UTC is 19:15 the same day, 02:00 UTC is 22:00 the previous day", () => {
    expect(BankCalendar.caracasParts(new Date("2026-11-20T23:15:00Z"))).toEqual({
      year: 2026,
      month: 11,
      day: 20,
      hour: 19,
      minute: 15,
      second: 0
    })
    expect(BankCalendar.caracasParts(utc("2027-01-01T02:00:05Z"))).toEqual({
      year: 2026,
      month: 12,
      day: 31,
      hour: 22,
      minute: 0,
      second: 5
    })
  })

  it("has no daylight saving: July and January read the same offset", () => {
    expect(BankCalendar.caracasParts(utc("2026-07-01T12:00:00Z")).hour).toBe(8)
    expect(BankCalendar.caracasParts(utc("2026-01-01T12:00:00Z")).hour).toBe(8)
  })

  it("a Venezuelan day runs from 04:00 UTC to 04:00 UTC the next day", () => {
    const at = utc("2026-11-20T23:15:00Z")
    expect(BankCalendar.caracasDayStart(at).toISOString()).toBe("2026-11-20T04:00:00.000Z")
    expect(BankCalendar.caracasDayEnd(at).toISOString()).toBe("2026-11-21T04:00:00.000Z")
    // 03:59:59.999 UTC still belongs to the previous Venezuelan day.
    expect(BankCalendar.caracasDayKey(utc("2026-11-21T03:59:59.999Z"))).toBe("2026-11-20")
    expect(BankCalendar.caracasDayKey(utc("2026-11-21T04:00:00.000Z"))).toBe("2026-11-21")
  })

  it("day keys cross month and year ends and leap days on the Caracas calendar", () => {
    expect(BankCalendar.caracasDayKey(utc("2027-01-01T03:00:00Z"))).toBe("2026-12-31")
    expect(BankCalendar.caracasDayKey(utc("2028-03-01T01:00:00Z"))).toBe("2028-02-29")
    expect(BankCalendar.caracasDayKey(new Date("2026-11-20T12:00:00Z"))).toBe("2026-11-20")
  })

  it.prop("the day containing t has t in [start, end) and lasts exactly 24 hours", [instant], ([t]) => {
    const start = BankCalendar.caracasDayStart(t).getTime()
    const end = BankCalendar.caracasDayEnd(t).getTime()
    expect(start).toBeLessThanOrEqual(t)
    expect(t).toBeLessThan(end)
    expect(end - start).toBe(DAY)
    expect(new Date(start).getUTCHours()).toBe(4)
    expect(start % 60_000).toBe(0)
  })

  it.prop(
    "every instant of one Venezuelan day shares its day key, and the next day differs",
    [instant],
    ([t]) => {
      const start = BankCalendar.caracasDayStart(t).getTime()
      const key = BankCalendar.caracasDayKey(t)
      expect(BankCalendar.caracasDayKey(start)).toBe(key)
      expect(BankCalendar.caracasDayKey(start + DAY - 1)).toBe(key)
      expect(BankCalendar.caracasDayKey(start + DAY)).not.toBe(key)
      expect(BankCalendar.caracasDayKey(start - 1)).not.toBe(key)
    }
  )

  it.prop("a day key read back as a filter date gives the start of that day", [instant], ([t]) => {
    const key = BankCalendar.caracasDayKey(t)
    expect(right(BankCalendar.parseFilterInstant(key))).toEqual(BankCalendar.caracasDayStart(t))
  })

  it.prop("Caracas parts are the UTC parts four hours earlier", [instant], ([t]) => {
    const shifted = new Date(t - 4 * HOUR)
    const p = BankCalendar.caracasParts(t)
    expect([p.year, p.month, p.day, p.hour, p.minute, p.second]).toEqual([
      shifted.getUTCFullYear(),
      shifted.getUTCMonth() + 1,
      shifted.getUTCDate(),
      shifted.getUTCHours(),
      shifted.getUTCMinutes(),
      shifted.getUTCSeconds()
    ])
  })
})

describe("BankCalendar: receipt time text", () => {
  it("formats fecha_hora_caracas as DD/MM/YYYY hh:mm:ss with a. m. / p. m.", () => {
    expect(BankCalendar.formatCaracas(utc("2026-11-20T23:15:00Z"))).toBe("20/11/2026 07:15:00 p. m.")
    expect(BankCalendar.formatCaracas(utc("2026-11-20T13:05:09Z"))).toBe("20/11/2026 09:05:09 a. m.")
  })

  it("midnight is 12 a. m. and noon is 12 p. m.", () => {
    expect(BankCalendar.formatCaracas(utc("2026-11-21T04:00:00Z"))).toBe("21/11/2026 12:00:00 a. m.")
    expect(BankCalendar.formatCaracas(utc("2026-11-20T16:00:00Z"))).toBe("20/11/2026 12:00:00 p. m.")
    expect(BankCalendar.formatCaracas(utc("2026-11-21T03:59:59Z"))).toBe("20/11/2026 11:59:59 p. m.")
  })

  it.prop("the receipt text always has the same fixed shape", [instant], ([t]) => {
    expect(BankCalendar.formatCaracas(t)).toMatch(
      /^\d{2}\/\d{2}\/\d{4} (0[1-9]|1[0-2]):[0-5]\d:[0-5]\d [ap]\. m\.$/
    )
  })
})

describe("BankCalendar: bank daily close", () => {
  const at = (caracasTime: string): number => utc(`2026-11-20T${caracasTime}-04:00`)

  it("is open during the day", () => {
    expect(BankCalendar.bankCloseStatus(at("12:00:00"))).toEqual({ _tag: "Abierto" })
    expect(BankCalendar.bankCloseStatus(at("23:29:59.999"))).toEqual({ _tag: "Abierto" })
  })

  it("warns without blocking from 23:30, counting seconds until 23:45", () => {
    expect(BankCalendar.bankCloseStatus(at("23:30:00"))).toEqual({ _tag: "Aviso", cierraEn: 900 })
    expect(BankCalendar.bankCloseStatus(at("23:44:59"))).toEqual({ _tag: "Aviso", cierraEn: 1 })
    expect(BankCalendar.bankCloseStatus(at("23:44:59.500"))).toEqual({ _tag: "Aviso", cierraEn: 1 })
  })

  it("23:45:00 is closed and the payer waits until 01:30 the next morning", () => {
    expect(BankCalendar.bankCloseStatus(at("23:45:00"))).toEqual({ _tag: "Cerrado", reintentarEn: 6300 })
  })

  it("after midnight it stays closed until 01:30, and 01:30:00 is open", () => {
    expect(BankCalendar.bankCloseStatus(at("00:00:00"))).toEqual({ _tag: "Cerrado", reintentarEn: 5400 })
    expect(BankCalendar.bankCloseStatus(at("01:29:59"))).toEqual({ _tag: "Cerrado", reintentarEn: 1 })
    expect(BankCalendar.bankCloseStatus(at("01:29:59.999"))).toEqual({ _tag: "Cerrado", reintentarEn: 1 })
    expect(BankCalendar.bankCloseStatus(at("01:30:00"))).toEqual({ _tag: "Abierto" })
  })

  it("accepts a Date as well as epoch milliseconds", () => {
    expect(BankCalendar.bankCloseStatus(new Date(at("23:50:00")))._tag).toBe("Cerrado")
  })

  it.prop("is Cerrado exactly on [23:45, 01:30) Caracas time", [instant], ([t]) => {
    const m = caracasMsOfDay(t)
    const closed = m >= (23 * 60 + 45) * 60_000 || m < 90 * 60_000
    expect(BankCalendar.bankCloseStatus(t)._tag === "Cerrado").toBe(closed)
  })

  it.prop("is Aviso exactly on [23:30, 23:45) Caracas time", [instant], ([t]) => {
    const m = caracasMsOfDay(t)
    const warning = m >= (23 * 60 + 30) * 60_000 && m < (23 * 60 + 45) * 60_000
    expect(BankCalendar.bankCloseStatus(t)._tag === "Aviso").toBe(warning)
  })

  it.prop("waiting reintentarEn seconds always lands on 01:30 Caracas time", [wholeSecond], ([t]) => {
    const status = BankCalendar.bankCloseStatus(t)
    if (status._tag !== "Cerrado") return
    expect(status.reintentarEn).toBeGreaterThanOrEqual(1)
    expect(status.reintentarEn).toBeLessThanOrEqual(6300)
    const retryAt = t + status.reintentarEn * 1000
    expect(caracasMsOfDay(retryAt)).toBe(90 * 60_000)
    expect(BankCalendar.bankCloseStatus(retryAt)).toEqual({ _tag: "Abierto" })
  })

  it.prop("reintentarEn rounds up: retrying after it is never still closed", [instant], ([t]) => {
    const status = BankCalendar.bankCloseStatus(t)
    if (status._tag !== "Cerrado") return
    expect(status.reintentarEn).toBeGreaterThanOrEqual(1)
    expect(BankCalendar.bankCloseStatus(t + status.reintentarEn * 1000)._tag).toBe("Abierto")
    expect(BankCalendar.bankCloseStatus(t + (status.reintentarEn - 1) * 1000)._tag).toBe("Cerrado")
  })

  it.prop("cierraEn counts down to exactly 23:45", [wholeSecond], ([t]) => {
    const status = BankCalendar.bankCloseStatus(t)
    if (status._tag !== "Aviso") return
    const closesAt = t + status.cierraEn * 1000
    expect(caracasMsOfDay(closesAt)).toBe((23 * 60 + 45) * 60_000)
    expect(BankCalendar.bankCloseStatus(closesAt)._tag).toBe("Cerrado")
  })

  it("tells the payer, in Spanish, the close hours and when to retry", () => {
    expect(BankCalendar.MOTIVO_CIERRE).toBe(
      "Los bancos están en su cierre diario (23:45 a 01:30, hora de Venezuela). Intenta de nuevo a partir de la 01:30."
    )
    expect(BankCalendar.avisoCierre(900)).toContain("en 15 minutos")
    expect(BankCalendar.avisoCierre(61)).toContain("en 2 minutos")
    expect(BankCalendar.avisoCierre(30)).toContain("en 1 minuto.")
  })
})

describe("BankCalendar: list filter dates (desde, hasta)", () => {
  const parsed = (text: string): string => right(BankCalendar.parseFilterInstant(text)).toISOString()

  it("reads epoch milliseconds given as digits", () => {
    expect(parsed("1795216500000")).toBe("2026-11-20T23:15:00.000Z")
    expect(parsed("0")).toBe("1970-01-01T00:00:00.000Z")
  })

  it("a date alone means the start of that Venezuelan day, 04:00 UTC", () => {
    expect(parsed("2026-11-20")).toBe("2026-11-20T04:00:00.000Z")
    expect(parsed("2028-02-29")).toBe("2028-02-29T04:00:00.000Z")
  })

  it("reads ISO 8601 date-times with Z or an offset", () => {
    expect(parsed("2026-11-20T19:15:00-04:00")).toBe("2026-11-20T23:15:00.000Z")
    expect(parsed("2026-11-20T23:15:00Z")).toBe("2026-11-20T23:15:00.000Z")
    expect(parsed("2026-11-20T23:15:00.123Z")).toBe("2026-11-20T23:15:00.123Z")
    expect(parsed("2026-11-20T23:15:00.123456Z")).toBe("2026-11-20T23:15:00.123Z")
    expect(parsed("2026-11-20T23:15Z")).toBe("2026-11-20T23:15:00.000Z")
    expect(parsed("2026-11-21T01:00:00+0130")).toBe("2026-11-20T23:30:00.000Z")
    expect(parsed("2026-11-20 23:15:00z")).toBe("2026-11-20T23:15:00.000Z")
  })

  it("a date-time without offset is Caracas time", () => {
    expect(parsed("2026-11-20T19:15:00")).toBe("2026-11-20T23:15:00.000Z")
  })

  it("reads a '+' offset that the query string turned into a space", () => {
    expect(parsed("2026-11-21T03:15:00 04:00")).toBe("2026-11-20T23:15:00.000Z")
  })

  it("refuses other text with a Spanish message", () => {
    for (const bad of [
      "",
      "ayer",
      "20/11/2026",
      "2026-11-20T",
      "2026-1-5",
      "-1795216500000",
      "1795216500000.5",
      " 2026-11-20",
      "2026-11-20T19:15:00+04",
      "1e12"
    ]) {
      expect(BankCalendar.parseFilterInstant(bad), bad).toEqual(
        Either.left(expect.stringMatching(/^debe ser una fecha ISO 8601/))
      )
    }
  })

  it("refuses dates and times that do not exist", () => {
    expect(BankCalendar.parseFilterInstant("2026-02-29")).toEqual(
      Either.left("no es una fecha del calendario")
    )
    expect(BankCalendar.parseFilterInstant("2026-13-01")).toEqual(
      Either.left("no es una fecha del calendario")
    )
    expect(BankCalendar.parseFilterInstant("2026-04-31")).toEqual(
      Either.left("no es una fecha del calendario")
    )
    expect(BankCalendar.parseFilterInstant("2026-11-00")).toEqual(
      Either.left("no es una fecha del calendario")
    )
    expect(BankCalendar.parseFilterInstant("2026-11-20T24:00:00Z")).toEqual(
      Either.left("no es una hora válida")
    )
    expect(BankCalendar.parseFilterInstant("2026-11-20T23:60:00Z")).toEqual(
      Either.left("no es una hora válida")
    )
    expect(BankCalendar.parseFilterInstant("2026-11-20T23:00:00+24:00")).toEqual(
      Either.left("no tiene una zona horaria válida")
    )
  })

  it("refuses epoch milliseconds a Date cannot hold", () => {
    expect(Either.isLeft(BankCalendar.parseFilterInstant("99999999999999999999"))).toBe(true)
    expect(Either.isLeft(BankCalendar.parseFilterInstant("8640000000000001"))).toBe(true)
  })

  it.prop("epoch milliseconds read back to the same instant", [instant], ([t]) => {
    expect(right(BankCalendar.parseFilterInstant(String(t))).getTime()).toBe(t)
  })

  it.prop("agrees with Date.parse on ISO date-times in UTC", [instant], ([t]) => {
    const iso = new Date(t).toISOString()
    expect(right(BankCalendar.parseFilterInstant(iso)).getTime()).toBe(Date.parse(iso))
  })

  it.prop("a Caracas wall time without offset is the same instant as with -04:00", [instant], ([t]) => {
    const p = BankCalendar.caracasParts(t)
    const pad = (n: number, w = 2) => String(n).padStart(w, "0")
    const wall = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`
    const local = right(BankCalendar.parseFilterInstant(wall))
    expect(local).toEqual(right(BankCalendar.parseFilterInstant(`${wall}-04:00`)))
    expect(local.getTime()).toBe(Math.floor(t / 1000) * 1000)
  })
})
