import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as BankCalendar from "./BankCalendar.js"
import * as ResumenDiario from "./ResumenDiario.js"

const utc = (iso: string): number => Date.parse(iso)
const HOUR = 3_600_000
const DAY = 24 * HOUR
const instant = fc.integer({ min: utc("1971-01-01T00:00:00Z"), max: utc("2100-01-01T00:00:00Z") })

describe("ResumenDiario", () => {
  it("07:00 Caracas (11:00 UTC) is when yesterday becomes due", () => {
    expect(ResumenDiario.diaDebido(utc("2026-11-21T11:00:00Z"))).toBe("2026-11-20")
    expect(ResumenDiario.diaDebido(utc("2026-11-21T10:59:59.999Z"))).toBe("2026-11-19")
    expect(ResumenDiario.diaDebido(utc("2026-11-22T03:59:59Z"))).toBe("2026-11-20")
    expect(ResumenDiario.diaDebido(utc("2027-01-01T11:00:00Z"))).toBe("2026-12-31")
    expect(ResumenDiario.hastaLaProxima(utc("2026-11-21T11:00:05Z"))).toBe(DAY - 5_000)
    expect(ResumenDiario.hastaLaProxima(utc("2026-11-21T10:00:00Z"))).toBe(HOUR)
    expect(ResumenDiario.hastaLaProxima(utc("2026-11-21T11:00:00Z"))).toBe(DAY)
  })

  it.prop("the next run is within a day, at 07:00:00 Caracas", [instant], ([t]) => {
    const wait = ResumenDiario.hastaLaProxima(t)
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(DAY)
    const next = BankCalendar.caracasParts(t + wait)
    expect([next.hour, next.minute, next.second]).toEqual([ResumenDiario.HORA, 0, 0])
    expect((t + wait) % 1000).toBe(0)
  })

  it.prop("the day due is yesterday from 07:00 and the day before until then", [instant], ([t]) => {
    const hour = BankCalendar.caracasParts(t).hour
    const start = BankCalendar.caracasDayStart(t).getTime()
    const back = hour >= ResumenDiario.HORA ? 1 : 2
    expect(ResumenDiario.diaDebido(t)).toBe(BankCalendar.caracasDayKey(start - back * DAY))
  })

  it.prop(
    "at a run's time the day due is the one before it, so consecutive runs cover every day once",
    [instant],
    ([t]) => {
      const run = t + ResumenDiario.hastaLaProxima(t)
      const following = run + ResumenDiario.hastaLaProxima(run)
      expect(ResumenDiario.diaDebido(run)).toBe(
        BankCalendar.caracasDayKey(BankCalendar.caracasDayStart(run).getTime() - DAY)
      )
      expect(ResumenDiario.diaDebido(following)).toBe(
        BankCalendar.caracasDayKey(BankCalendar.caracasDayStart(run).getTime())
      )
    }
  )
})
