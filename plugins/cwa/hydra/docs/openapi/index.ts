/** The OpenAPI document: its shared kit, the resources' properties and schemas, the operations, the assembler. */
export { documentedPath, openApiDocument, type OpenApiInfo } from './document.js'
export * from './kit.js'
export { computed, type PropertyDescription, resourceProperties } from './properties.js'
export { resourceDocs } from './resourceOperations.js'
