/** The examples of the split accounts approved in the portal (CuentasAprobadas.ts), spread into Examples.ts. */
const cuenta = {
  tipo: "cuenta",
  valor: "01020501880123456789",
  banco: "0102",
  identificacion: "V-12.345.678",
  tipo_doc: "V",
  nombre: "Pedro Pérez"
} as const
const aprobada = {
  id: "ca_q9Xv3LrT0bWk2sYdE7uN4a",
  ...cuenta,
  identificacion: "V-12345678"
} as const

export const cuentasAprobadasExamples = {
  "cuentasAprobadas.list": { response: { data: [aprobada], max: 20 } },
  "cuentasAprobadas.add": { request: cuenta, response: { data: [aprobada], max: 20 }, status: 201 },
  "cuentasAprobadas.remove": { params: { id: aprobada.id }, response: { data: [], max: 20 } }
}
