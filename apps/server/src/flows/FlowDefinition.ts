// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${...} is the Flow JSON binding syntax, not a template.
/**
 * Our Flow JSON for a collection: DATOS (bank, phone and id) -> CODIGO (the bank's code) ->
 * EXITO. Its buttons call the data endpoint with `accion` REQUEST_TOKEN and CONFIRM_PAYMENT.
 */

const footer = (label: string, payload: Record<string, string>) => ({
  type: "Footer",
  label,
  "on-click-action": { name: "data_exchange", payload }
})

export const SCREENS = { datos: "DATOS", codigo: "CODIGO", exito: "EXITO" } as const

/** The Flow JSON stored for a binding that does not bring its own. */
export const defaultDefinition = () => ({
  version: "6.0",
  data_api_version: "3.0",
  routing_model: { DATOS: ["CODIGO"], CODIGO: ["EXITO"], EXITO: [] },
  screens: [
    {
      id: SCREENS.datos,
      title: "Pagar",
      data: {
        bancos: {
          type: "array",
          items: { type: "object" },
          __example__: [{ id: "0102", title: "Banco de Venezuela" }]
        },
        resumen: { type: "string", __example__: "Pedido 42 · Bs 150,50" },
        error_message: { type: "string", __example__: "" }
      },
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextBody", text: "${data.resumen}" },
          { type: "TextCaption", text: "${data.error_message}" },
          {
            type: "Form",
            name: "datos",
            children: [
              {
                type: "Dropdown",
                label: "Banco",
                name: "banco",
                "data-source": "${data.bancos}",
                required: true
              },
              {
                type: "TextInput",
                label: "Teléfono del pago móvil",
                name: "telefono",
                "input-type": "phone",
                required: true
              },
              {
                type: "Dropdown",
                label: "Tipo de documento",
                name: "tipo_doc",
                "data-source": [
                  { id: "V", title: "V" },
                  { id: "E", title: "E" },
                  { id: "J", title: "J" },
                  { id: "P", title: "P" },
                  { id: "G", title: "G" }
                ],
                required: true
              },
              {
                type: "TextInput",
                label: "Número de documento",
                name: "cedula",
                "input-type": "number",
                required: true
              },
              footer("Pedir código", {
                accion: "REQUEST_TOKEN",
                banco: "${form.banco}",
                telefono: "${form.telefono}",
                tipo_doc: "${form.tipo_doc}",
                cedula: "${form.cedula}"
              })
            ]
          }
        ]
      }
    },
    {
      id: SCREENS.codigo,
      title: "Código del banco",
      data: {
        resumen: { type: "string", __example__: "Bs 150,50" },
        error_message: { type: "string", __example__: "" }
      },
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextBody", text: "Escribe el código de 8 dígitos que te envió tu banco." },
          { type: "TextCaption", text: "${data.error_message}" },
          {
            type: "Form",
            name: "codigo",
            children: [
              { type: "TextInput", label: "Código", name: "otp", "input-type": "number", required: true },
              footer("Pagar", { accion: "CONFIRM_PAYMENT", otp: "${form.otp}" })
            ]
          }
        ]
      }
    },
    {
      id: SCREENS.exito,
      title: "Pago recibido",
      terminal: true,
      success: true,
      data: { mensaje: { type: "string", __example__: "Pago confirmado" } },
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextBody", text: "${data.mensaje}" },
          { type: "Footer", label: "Listo", "on-click-action": { name: "complete", payload: {} } }
        ]
      }
    }
  ]
})
