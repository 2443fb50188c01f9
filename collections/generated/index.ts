// Written by the cwa:make:* commands: the types they generated (payload.config.ts includes them).
import type { CollectionConfig } from 'payload'

export const generatedComponents: CollectionConfig[] = []
export const generatedPageData: CollectionConfig[] = []
