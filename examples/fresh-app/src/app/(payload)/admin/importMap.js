import { PageBuilderField as PageBuilderField_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { GenerateRoute as GenerateRoute_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { ViewOnSite as ViewOnSite_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { RouteLiveness as RouteLiveness_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { RouteTreeLink as RouteTreeLink_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { EmptyPositionWarning as EmptyPositionWarning_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { CwaNavLinks as CwaNavLinks_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { StartPanel as StartPanel_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { RouteTreeView as RouteTreeView_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { OrphansView as OrphansView_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { CollectionCards as CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1 } from '@payloadcms/next/rsc'

/** @type import('payload').ImportMap */
export const importMap = {
  "payload-cwa/admin#PageBuilderField": PageBuilderField_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#GenerateRoute": GenerateRoute_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#ViewOnSite": ViewOnSite_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#RouteLiveness": RouteLiveness_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#RouteTreeLink": RouteTreeLink_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#EmptyPositionWarning": EmptyPositionWarning_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#CwaNavLinks": CwaNavLinks_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#StartPanel": StartPanel_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#RouteTreeView": RouteTreeView_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#OrphansView": OrphansView_4113cd7e43998b7f44a42586abebc5e4,
  "@payloadcms/next/rsc#CollectionCards": CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1
}
