/**
 * The geometry of the home chart's bars (inline SVG, no chart library): one bar a day, heights
 * scaled to the week's largest day on a rounded axis, and the day's short Spanish label.
 */

export interface Dia {
  readonly dia: string
  readonly cobrado: number
  readonly pagos: number
}

export interface Barra {
  readonly x: number
  readonly y: number
  readonly ancho: number
  readonly alto: number
  readonly etiqueta: string
  readonly dia: Dia
}

const DIAS = ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"] as const

/** `mié 25` for `2026-11-25`. */
export const etiquetaDia = (dia: string): string => {
  const [y, m, d] = dia.split("-").map(Number)
  const weekday = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay()
  return `${DIAS[weekday]} ${d}`
}

/** The axis top: the largest day rounded up to 1, 2 or 5 times a power of ten (at least 10). */
export const tope = (max: number): number => {
  if (max <= 10) return 10
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power
  return 10 * power
}

/** The bars in a `width` × `height` plot area (SVG units), with a gap between bars. */
export const barras = (semana: ReadonlyArray<Dia>, width: number, height: number): ReadonlyArray<Barra> => {
  const top = tope(Math.max(0, ...semana.map((d) => d.cobrado)))
  const slot = width / Math.max(1, semana.length)
  const ancho = slot * 0.6
  return semana.map((dia, i) => {
    const alto = dia.cobrado <= 0 ? 0 : Math.max(2, (dia.cobrado / top) * height)
    return {
      x: i * slot + (slot - ancho) / 2,
      y: height - alto,
      ancho,
      alto,
      etiqueta: etiquetaDia(dia.dia),
      dia
    }
  })
}
