/**
 * A merchant's commission, tip cap, money limits, immediate settlement, the split's daily cap per
 * beneficiary and pilots (split, card, refunds) in the console's
 * merchant screen: everyone reads them; `riesgo` edits them (`PATCH
 * /admin/v1/operador/comercios/{codigo}`, the admin API's rules; the server audits the change
 * with before and after). Only the fields the operator changed are sent. Loaded when opened.
 */
import { type FormEvent, useState } from "react"
import { bolivares, parseBolivares } from "../format.js"
import { errorText, request } from "./api.js"
import "./configuracion.css"

type Moneda = "VES" | "USD"
interface Limite {
  readonly monto: number
  readonly moneda: Moneda
}

const LIMITES = ["monto_min", "monto_max", "max_diario", "tope_diario", "tope_acumulado"] as const
type CampoLimite = (typeof LIMITES)[number]

const ETIQUETA: Record<CampoLimite, string> = {
  monto_min: "Monto mínimo por pago",
  monto_max: "Monto máximo por pago",
  max_diario: "Máximo diario",
  tope_diario: "Tope diario de recepción",
  tope_acumulado: "Tope acumulado de recepción"
}

export interface Configuracion {
  readonly comision_pct: number
  readonly comision_acordada: boolean
  readonly propina_max_pct: number | null
  /** Absent from a server older than issue 42: not shown as editable. */
  readonly liquidacion_inmediata?: boolean
  readonly split_habilitado: boolean
  /** The split's daily cap per beneficiary in Bs (null: the default, `..._efectivo`). */
  readonly tope_beneficiario_diario?: number | null
  readonly tope_beneficiario_diario_efectivo?: number
  readonly tarjeta_habilitada: boolean
  /** The card surcharge the payer pays, in % (3 by default); absent from a server before the card pilot. */
  readonly recargo_tarjeta_pct?: number
  /** Absent from a server older than the refunds pilot: read as off. */
  readonly reembolsos_habilitado?: boolean
  readonly monto_min: Limite | null
  readonly monto_max: Limite | null
  readonly max_diario: Limite | null
  readonly tope_diario: Limite | null
  readonly tope_acumulado: Limite | null
}

const NOMBRE: Record<string, string> = {
  ...ETIQUETA,
  comision_pct: "Comisión",
  propina_max_pct: "Tope de propina",
  liquidacion_inmediata: "Liquidación inmediata",
  tope_beneficiario_diario: "Tope diario por beneficiario del reparto",
  split_habilitado: "Pagos con reparto",
  tarjeta_habilitada: "Pagos con tarjeta",
  recargo_tarjeta_pct: "Recargo por pago con tarjeta",
  reembolsos_habilitado: "Reembolsos desde el panel"
}

/** The service's `campo: mensaje` with the field's Spanish name. */
const enEspanol = (text: string) =>
  text.replace(/\b([a-z_]+)(?:\.[a-z_]+)?:/g, (found, campo: string) =>
    NOMBRE[campo] === undefined ? found : `${NOMBRE[campo]}:`
  )

/** `1,75 %`. */
export const porcentaje = (pct: number) =>
  `${pct
    .toFixed(2)
    .replace(/\.?0+$/, "")
    .replace(".", ",")} %`

/** `Bs 1.234,56` or `USD 1.234,56`. */
export const limiteTexto = (limite: Limite | null) =>
  limite === null
    ? "Sin límite"
    : limite.moneda === "VES"
      ? bolivares(limite.monto)
      : bolivares(limite.monto).replace(/^Bs/, "USD")

/** `1,75` or `1.75` as a number with at most 2 decimals; undefined when it is not one. */
const parsePorcentaje = (text: string): number | undefined => {
  const clean = text.trim().replace(/\s*%$/, "")
  if (!/^\d{1,3}([.,]\d{1,2})?$/.test(clean)) return undefined
  return Number(clean.replace(",", "."))
}

/** An amount as the operator reads it in the field: `1.234,56`. */
const montoTexto = (monto: number) => bolivares(monto).replace(/^Bs /, "")

interface Borrador {
  comision: string
  propina: string
  inmediata: boolean
  topeBeneficiario: string
  split: boolean
  tarjeta: boolean
  recargo: string
  reembolsos: boolean
  limites: Record<CampoLimite, { monto: string; moneda: Moneda }>
  nota: string
}

const borrador = (c: Configuracion): Borrador => ({
  comision: c.comision_acordada ? String(c.comision_pct).replace(".", ",") : "",
  propina: c.propina_max_pct === null ? "" : String(c.propina_max_pct).replace(".", ","),
  inmediata: c.liquidacion_inmediata === true,
  topeBeneficiario:
    c.tope_beneficiario_diario === null || c.tope_beneficiario_diario === undefined
      ? ""
      : montoTexto(c.tope_beneficiario_diario),
  split: c.split_habilitado,
  tarjeta: c.tarjeta_habilitada,
  recargo: c.recargo_tarjeta_pct === undefined ? "" : String(c.recargo_tarjeta_pct).replace(".", ","),
  reembolsos: c.reembolsos_habilitado === true,
  limites: Object.fromEntries(
    LIMITES.map((campo) => {
      const limite = c[campo]
      return [
        campo,
        { monto: limite === null ? "" : montoTexto(limite.monto), moneda: limite?.moneda ?? "VES" }
      ]
    })
  ) as Borrador["limites"],
  nota: ""
})

/** The fields that changed, as the API takes them, or an error text. */
const cambios = (c: Configuracion, b: Borrador): Record<string, unknown> | string => {
  const out: Record<string, unknown> = {}
  const comision = b.comision.trim() === "" ? null : parsePorcentaje(b.comision)
  if (comision === undefined) return "Comisión: escribe un porcentaje como 1,75 (o déjala vacía)."
  if (comision !== (c.comision_acordada ? c.comision_pct : null)) out.comision_pct = comision
  const propina = b.propina.trim() === "" ? null : parsePorcentaje(b.propina)
  if (propina === undefined) return "Tope de propina: escribe un porcentaje como 15 (o déjalo vacío)."
  if (propina !== c.propina_max_pct) out.propina_max_pct = propina
  for (const campo of LIMITES) {
    const { monto, moneda } = b.limites[campo]
    const valor = monto.trim() === "" ? null : parseBolivares(monto)
    if (valor === undefined) return `${ETIQUETA[campo]}: escribe un monto como 1.234,56 (o déjalo vacío).`
    const actual = c[campo]
    const igual =
      valor === null ? actual === null : actual !== null && actual.monto === valor && actual.moneda === moneda
    if (!igual) out[campo] = valor === null ? null : { monto: valor, moneda }
  }
  const tope = b.topeBeneficiario.trim() === "" ? null : parseBolivares(b.topeBeneficiario)
  if (tope === undefined)
    return "Tope diario por beneficiario: escribe un monto como 1.234,56 (o déjalo vacío)."
  if (c.tope_beneficiario_diario !== undefined && tope !== c.tope_beneficiario_diario)
    out.tope_beneficiario_diario = tope
  if (c.liquidacion_inmediata !== undefined && b.inmediata !== c.liquidacion_inmediata)
    out.liquidacion_inmediata = b.inmediata
  if (b.split !== c.split_habilitado) out.split_habilitado = b.split
  if (b.tarjeta !== c.tarjeta_habilitada) out.tarjeta_habilitada = b.tarjeta
  if (c.recargo_tarjeta_pct !== undefined) {
    const recargo = parsePorcentaje(b.recargo)
    if (recargo === undefined || recargo > 100)
      return "Recargo por pago con tarjeta: escribe un porcentaje de 0 a 100 como 3 o 2,5."
    if (recargo !== c.recargo_tarjeta_pct) out.recargo_tarjeta_pct = recargo
  }
  if (b.reembolsos !== (c.reembolsos_habilitado === true)) out.reembolsos_habilitado = b.reembolsos
  return out
}

const Interruptor = (props: {
  readonly id: string
  readonly label: string
  readonly checked: boolean
  readonly onChange: (value: boolean) => void
}) => (
  <div className="casilla interruptor">
    <input
      id={props.id}
      type="checkbox"
      role="switch"
      aria-checked={props.checked}
      checked={props.checked}
      onChange={(e) => props.onChange(e.target.checked)}
    />
    <label htmlFor={props.id}>
      {props.label} ({props.checked ? "activado" : "desactivado"})
    </label>
  </div>
)

const Editar = (props: {
  readonly codigo: string
  readonly configuracion: Configuracion
  readonly onSaved: (c: Configuracion) => void
}) => {
  const [b, setB] = useState(() => borrador(props.configuracion))
  const [error, setError] = useState<string | null>(null)
  const [aviso, setAviso] = useState("")
  const [busy, setBusy] = useState(false)
  const id = `config-${props.codigo}`
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    setAviso("")
    const body = cambios(props.configuracion, b)
    if (typeof body === "string") return setError(body)
    if (Object.keys(body).length === 0) return setAviso("No hay cambios que guardar.")
    setBusy(true)
    try {
      const nota = b.nota.trim()
      const saved = await request<Configuracion>("PATCH", `/comercios/${props.codigo}`, {
        ...body,
        ...(nota === "" ? {} : { nota })
      })
      props.onSaved(saved)
      setB(borrador(saved))
      setAviso("Configuración guardada.")
    } catch (e) {
      setError(enEspanol(errorText(e)))
    } finally {
      setBusy(false)
    }
  }
  const limite = (campo: CampoLimite, cambio: Partial<{ monto: string; moneda: Moneda }>) =>
    setB({ ...b, limites: { ...b.limites, [campo]: { ...b.limites[campo], ...cambio } } })
  return (
    <form onSubmit={submit} aria-label={`Configuración de ${props.codigo}`} className="config-form">
      <div className="campo">
        <label htmlFor={`${id}-comision`}>Comisión acordada (%)</label>
        <input
          id={`${id}-comision`}
          inputMode="decimal"
          aria-describedby={`${id}-comision-ayuda`}
          value={b.comision}
          onChange={(e) => setB({ ...b, comision: e.target.value })}
        />
        <small id={`${id}-comision-ayuda`} className="nota">
          De 0 a 100, hasta 2 decimales. Vacía: la comisión por omisión.
        </small>
      </div>
      <div className="campo">
        <label htmlFor={`${id}-propina`}>Tope de propina (%)</label>
        <input
          id={`${id}-propina`}
          inputMode="decimal"
          aria-describedby={`${id}-propina-ayuda`}
          value={b.propina}
          onChange={(e) => setB({ ...b, propina: e.target.value })}
        />
        <small id={`${id}-propina-ayuda`} className="nota">
          Vacío: sin tope propio.
        </small>
      </div>
      <fieldset className="config-limites">
        <legend>Límites (vacío: sin límite; en Bs o en USD a la tasa BCV)</legend>
        {LIMITES.map((campo) => (
          <div className="config-limite" key={campo}>
            <div className="campo">
              <label htmlFor={`${id}-${campo}`}>{ETIQUETA[campo]}</label>
              <input
                id={`${id}-${campo}`}
                inputMode="decimal"
                value={b.limites[campo].monto}
                onChange={(e) => limite(campo, { monto: e.target.value })}
              />
            </div>
            <div className="campo">
              <label htmlFor={`${id}-${campo}-moneda`}>
                Moneda<span className="oculto"> de {ETIQUETA[campo].toLowerCase()}</span>
              </label>
              <select
                id={`${id}-${campo}-moneda`}
                value={b.limites[campo].moneda}
                onChange={(e) => limite(campo, { moneda: e.target.value as Moneda })}
              >
                <option value="VES">Bs</option>
                <option value="USD">USD</option>
              </select>
            </div>
          </div>
        ))}
      </fieldset>
      <fieldset className="config-limites">
        <legend>Liquidación y reparto</legend>
        <Interruptor
          id={`${id}-inmediata`}
          label="Liquidación inmediata"
          checked={b.inmediata}
          onChange={(inmediata) => setB({ ...b, inmediata })}
        />
        <div className="campo">
          <label htmlFor={`${id}-tope-beneficiario`}>Tope diario por beneficiario del reparto (Bs)</label>
          <input
            id={`${id}-tope-beneficiario`}
            inputMode="decimal"
            aria-describedby={`${id}-tope-beneficiario-ayuda`}
            value={b.topeBeneficiario}
            onChange={(e) => setB({ ...b, topeBeneficiario: e.target.value })}
          />
          <small id={`${id}-tope-beneficiario-ayuda`} className="nota">
            Vacío: el tope por omisión ({bolivares(500_000)} por cuenta y día).
          </small>
        </div>
      </fieldset>
      <fieldset className="config-limites">
        <legend>Pilotos</legend>
        <Interruptor
          id={`${id}-split`}
          label="Pagos con reparto"
          checked={b.split}
          onChange={(split) => setB({ ...b, split })}
        />
        <Interruptor
          id={`${id}-tarjeta`}
          label="Pagos con tarjeta"
          checked={b.tarjeta}
          onChange={(tarjeta) => setB({ ...b, tarjeta })}
        />
        {props.configuracion.recargo_tarjeta_pct === undefined ? null : (
          <div className="campo">
            <label htmlFor={`${id}-recargo`}>Recargo por pago con tarjeta (%)</label>
            <input
              id={`${id}-recargo`}
              inputMode="decimal"
              aria-describedby={`${id}-recargo-ayuda`}
              value={b.recargo}
              onChange={(e) => setB({ ...b, recargo: e.target.value })}
            />
            <small id={`${id}-recargo-ayuda`} className="nota">
              Lo paga el pagador sobre el total y no es del comercio: con 3 %, Bs 100 se cobran Bs 103.
            </small>
          </div>
        )}
        <Interruptor
          id={`${id}-reembolsos`}
          label="Reembolsos desde el panel"
          checked={b.reembolsos}
          onChange={(reembolsos) => setB({ ...b, reembolsos })}
        />
      </fieldset>
      <div className="campo">
        <label htmlFor={`${id}-nota`}>Nota (auditoría)</label>
        <input id={`${id}-nota`} value={b.nota} onChange={(e) => setB({ ...b, nota: e.target.value })} />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? "Guardando…" : "Guardar configuración"}
      </button>
      <p className="aviso" role="status">
        {aviso}
      </p>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  )
}

export const ConfiguracionComercio = (props: { readonly codigo: string; readonly puedeEditar: boolean }) => {
  const [configuracion, setConfiguracion] = useState<Configuracion | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [abierto, setAbierto] = useState(false)
  const load = () => {
    setError(null)
    request<Configuracion>("GET", `/comercios/${props.codigo}`)
      .then(setConfiguracion)
      .catch((e) => setError(errorText(e)))
  }
  return (
    <details
      className="configuracion-comercio"
      onToggle={(e) => {
        const open = (e.currentTarget as HTMLDetailsElement).open
        setAbierto(open)
        if (open && configuracion === null) load()
      }}
    >
      <summary>Comisión, límites y pilotos</summary>
      {error === null ? null : (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {configuracion === null ? (
        error === null && abierto ? (
          <p>Cargando…</p>
        ) : null
      ) : (
        <>
          <dl className="datos">
            <div>
              <dt>Comisión</dt>
              <dd>
                {porcentaje(configuracion.comision_pct)}{" "}
                {configuracion.comision_acordada ? "(acordada)" : "(por omisión)"}
              </dd>
            </div>
            <div>
              <dt>Tope de propina</dt>
              <dd>
                {configuracion.propina_max_pct === null
                  ? "Sin tope propio"
                  : porcentaje(configuracion.propina_max_pct)}
              </dd>
            </div>
            {LIMITES.map((campo) => (
              <div key={campo}>
                <dt>{ETIQUETA[campo]}</dt>
                <dd>{limiteTexto(configuracion[campo])}</dd>
              </div>
            ))}
            <div>
              <dt>Liquidación inmediata</dt>
              <dd>{configuracion.liquidacion_inmediata === true ? "Activada" : "Desactivada"}</dd>
            </div>
            <div>
              <dt>Tope diario por beneficiario del reparto</dt>
              <dd>
                {configuracion.tope_beneficiario_diario_efectivo === undefined
                  ? "—"
                  : `${bolivares(configuracion.tope_beneficiario_diario_efectivo)}${
                      configuracion.tope_beneficiario_diario === null ? " (tope por omisión)" : ""
                    }`}
              </dd>
            </div>
            <div>
              <dt>Pagos con reparto</dt>
              <dd>{configuracion.split_habilitado ? "Activado" : "Desactivado"}</dd>
            </div>
            <div>
              <dt>Pagos con tarjeta</dt>
              <dd>
                {configuracion.tarjeta_habilitada ? "Activado" : "Desactivado"}
                {configuracion.recargo_tarjeta_pct === undefined
                  ? ""
                  : `, recargo ${porcentaje(configuracion.recargo_tarjeta_pct)}`}
              </dd>
            </div>
            <div>
              <dt>Reembolsos desde el panel</dt>
              <dd>{configuracion.reembolsos_habilitado === true ? "Activado" : "Desactivado"}</dd>
            </div>
          </dl>
          {props.puedeEditar ? (
            <Editar codigo={props.codigo} configuracion={configuracion} onSaved={setConfiguracion} />
          ) : (
            <p className="nota">
              Solo el rol riesgo cambia la comisión, los límites, la liquidación inmediata y los pilotos.
            </p>
          )}
        </>
      )}
    </details>
  )
}
