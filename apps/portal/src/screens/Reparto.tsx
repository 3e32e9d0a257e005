/**
 * A link's split (`reparto`) as its merchant sees it: each beneficiary masked (bank, type, last 4
 * digits, name), its share, the amount, its state and the bank's reference once paid. Shown in the
 * link's detail and under a settlement in Liquidaciones.
 */
import { bolivares } from "../format.js"

export interface RepartoParte {
  readonly banco: string
  readonly tipo: string
  readonly ultimos4: string
  readonly nombre: string
  readonly porcentaje: number | null
  readonly monto_fijo: number | null
  readonly monto: number
  readonly estado: string
  readonly referencia_bancaria: string | null
}

export interface RepartoData {
  readonly estado: string
  readonly monto_comercio: number
  readonly monto_repartido: number
  readonly beneficiarios: ReadonlyArray<RepartoParte>
}

/** The states of SPEC's split, in the portal's words. */
export const REPARTO_LABEL: Readonly<Record<string, string>> = {
  pendiente: "Pendiente",
  repartido: "Repartido",
  en_revision: "En revisión",
  cerrado: "Cerrado",
  pagado: "Pagado",
  sin_monto: "Sin monto (menos de un céntimo)",
  descartado: "Cerrado sin pagar"
}

const clase = (estado: string) =>
  estado === "pagado" || estado === "repartido"
    ? "pagado"
    : estado === "descartado" || estado === "cerrado"
      ? "cancelado"
      : "pendiente"

/** Reads a link's `reparto` as the API gives it; null when there is none. */
export const repartoDe = (value: unknown): RepartoData | null =>
  typeof value === "object" && value !== null && Array.isArray((value as RepartoData).beneficiarios)
    ? (value as RepartoData)
    : null

const cuota = (p: RepartoParte) =>
  p.porcentaje !== null ? `${p.porcentaje.toLocaleString("es-VE")} %` : bolivares(p.monto_fijo ?? p.monto)

export const Reparto = ({ reparto, titulo }: { readonly reparto: RepartoData; readonly titulo: string }) => (
  <section className="reparto" aria-label={titulo}>
    <h2>{titulo}</h2>
    <p>
      Estado del reparto:{" "}
      <span className={`estado estado-${clase(reparto.estado)}`}>
        {REPARTO_LABEL[reparto.estado] ?? reparto.estado}
      </span>
      . Repartido {bolivares(reparto.monto_repartido)}; para tu comercio {bolivares(reparto.monto_comercio)}.
    </p>
    <table className="tabla">
      <caption className="oculto">Pagos del reparto a cada beneficiario</caption>
      <thead>
        <tr>
          <th scope="col">Beneficiario</th>
          <th scope="col">Cuenta</th>
          <th scope="col">Parte</th>
          <th scope="col">Monto</th>
          <th scope="col">Estado</th>
          <th scope="col">Referencia</th>
        </tr>
      </thead>
      <tbody>
        {reparto.beneficiarios.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a split's parts are fixed at creation, in order
          <tr key={i}>
            <td data-titulo="Beneficiario">{p.nombre}</td>
            <td data-titulo="Cuenta">
              {p.tipo === "telefono" ? "Teléfono" : "Cuenta"} {p.banco} ···{p.ultimos4}
            </td>
            <td data-titulo="Parte">{cuota(p)}</td>
            <td data-titulo="Monto">{bolivares(p.monto)}</td>
            <td data-titulo="Estado">
              <span className={`estado estado-${clase(p.estado)}`}>
                {REPARTO_LABEL[p.estado] ?? p.estado}
              </span>
            </td>
            <td data-titulo="Referencia">{p.referencia_bancaria ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </section>
)
