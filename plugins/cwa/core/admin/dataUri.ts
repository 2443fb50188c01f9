/** A file as a data URI carrying its name (the uploads feature's `name=` parameter), so the stored name keeps it. */
export async function namedDataUri(file: File): Promise<string> {
  const uri = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'))
    reader.readAsDataURL(file)
  })
  return uri.replace(
    /^data:([^;,]*)/,
    (_m, type: string) => `data:${type || 'application/octet-stream'};name=${encodeURIComponent(file.name)}`,
  )
}
