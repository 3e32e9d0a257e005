/**
 * Links priced in dollars (issue 33): the dollar price and the BCV rate that converted it, in the
 * link's detail, and the words for a refusal for want of a fresh rate.
 */
import type { LinkDolares } from "@switch/sdk"
import { SwitchError } from "@switch/sdk"
import { useEffect, useState } from "react"
import { errorText, sw } from "../api.js"
import { bolivares } from "../format.js"

/** `US$ 1.234,56`. */
export const dolares = (monto: number): string => bolivares(monto).replace("Bs", "US$")

/** A rate as Venezuelans write it: `36,5012`. */
export const tasa = (ves: number): string => {
  const [whole = "0", fraction] = String(ves).split(".")
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ".")}${fraction === undefined ? "" : `,${fraction}`}`
}

/** What to tell the merchant when a dollar price cannot be converted. */
export const errorDolares = (error: unknown): string =>
  error instanceof SwitchError && error.code === "tasa_no_disponible"
    ? "No hay una tasa oficial del BCV vigente para convertir dólares. Crea el link en bolívares o intenta más tarde."
    : errorText(error)

/** The dollar price line of a link's detail; nothing for a link made in bolivars. */
export const PrecioDolares = ({ id }: { readonly id: string }) => {
  const [precio, setPrecio] = useState<LinkDolares | null>(null)
  useEffect(() => {
    sw.links.dolares(id).then(setPrecio, () => setPrecio(null))
  }, [id])
  if (precio === null || precio.monto_usd === null || precio.tasa_bcv === null) return null
  return (
    <p className="nota precio-dolares">
      Precio en dólares: {dolares(precio.monto_usd)} a Bs {tasa(precio.tasa_bcv)} por dólar (tasa BCV al
      crearlo). El cliente paga {bolivares(precio.monto)}.
    </p>
  )
}
