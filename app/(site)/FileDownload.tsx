/* The site's own component type (collections/components.ts): a file to download, with its preview image. */
import type { CwaBlockProps } from 'payload-cwa/react'
import { mediaObjects } from 'payload-cwa/react'
import type { FileDownload as FileDownloadType } from '../../collections/generated/cwaTypes'

export function FileDownload({ component }: CwaBlockProps<FileDownloadType>) {
  const [file] = mediaObjects(component, 'file')
  if (!file) return null
  const preview = mediaObjects(component, 'preview').find((object) => object.imagineFilter === 'thumbnail')
  const name = (component.filename ?? file.contentUrl).split('/').pop()
  return (
    <p className="cwa-download">
      <a href={file.contentUrl} download>
        {preview ? (
          <img
            src={preview.contentUrl}
            width={preview.width ?? undefined}
            height={preview.height ?? undefined}
            alt=""
          />
        ) : null}
        Download {name}
      </a>
    </p>
  )
}
