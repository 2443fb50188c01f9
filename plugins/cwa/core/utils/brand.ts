/**
 * Classes whose values cross module copies: `instanceof` answers by a registered symbol (`Symbol.for`) instead of
 * the class object. Two copies of the package can share one process and one Payload: a Next.js app inside a custom
 * server bundles its own copy and gets the server's Payload (getPayload's cache), whose features make values with
 * the other copy's classes. Without this, the pipeline took such a value for a plain object and walked it whole.
 */
const BRAND = Symbol.for('payload-cwa.brand')

/** Marks an instance as its class's (every copy of the class recognises it). */
export function brand(instance: object, name: string): void {
  Object.defineProperty(instance, BRAND, { value: name, enumerable: false })
}

/**
 * `instanceof` for a branded class: by brand for the class itself, the usual prototype check for its subclasses
 * (a subclass inherits the static method, and its instances carry the base's brand).
 */
export function brandedInstanceOf(
  target: abstract new (...args: never[]) => unknown,
  base: abstract new (...args: never[]) => unknown,
  name: string,
  value: unknown,
): boolean {
  if (target !== base) return Function.prototype[Symbol.hasInstance].call(target, value)
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === name
}
