/** The OpenAPI document: its shared kit, the resources' properties and schemas, the operations, the assembler. */
export { documentedPath, openApiDocument, type OpenApiInfo } from './document'
export * from './kit'
export { computed, type PropertyDescription, resourceProperties } from './properties'
export { resourceDocs } from './resourceOperations'
