/**
 * Our rules over Swagger UI's stylesheet on /docs: the sample-data note, the operation list of
 * the page's HTML, and colours dark enough for their text (WCAG 1.4.3, 4.5:1), where Swagger
 * UI's own fall short.
 */
export const DOCS_CSS = `.sample-notice { margin: 1em 2em; padding: .75em 1em; border: 2px solid #8a5a00; background: #fff4d6; color: #222; font: 16px/1.4 sans-serif; }
.swagger-ui .operation-list { list-style: none; margin: 0 0 1.5em; padding: 0; }
.swagger-ui .operation-list .opblock-summary { display: flex; flex-wrap: wrap; align-items: center; gap: .5em; padding: 5px; }
.swagger-ui .operation-list .opblock-summary-path { background: none; font-weight: 600; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f5f9e; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1e6b45; }
.swagger-ui .info .title small { background: #555b66; }
.swagger-ui .info .title small.version-stamp { background: #3f6b00; }
.swagger-ui .info a, .swagger-ui .info .link, .swagger-ui .info .url { color: #1b5e9e; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #505050; }
.swagger-ui .parameter__in { color: #595959; }
.swagger-ui .btn.try-out__btn.cancel { color: #b00020; border-color: #b00020; }
.swagger-ui .btn.execute { background-color: #1b5e9e; border-color: #1b5e9e; }
.swagger-ui .download-contents { background: #555b66; }
/* responses and schema names that fit a phone: the columns share the width and long names break */
.swagger-ui .responses-table { table-layout: fixed; width: 100%; }
.swagger-ui .responses-table .response-col_status { width: 4em; }
.swagger-ui .responses-table td, .swagger-ui .json-schema-2020-12-accordion { overflow-wrap: anywhere; min-width: 0; }
/* an example at full length: a box that scrolls would need the keyboard's focus, which Swagger UI does not give it */
.swagger-ui .highlight-code > .microlight { max-height: none; overflow-y: visible; }
`;
