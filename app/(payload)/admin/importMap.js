import { PageBuilderField as PageBuilderField_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { ReferenceFromTitleField as ReferenceFromTitleField_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { OptionalCheckboxField as OptionalCheckboxField_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { RouteJoinField as RouteJoinField_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { GenerateRoute as GenerateRoute_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { ViewOnSite as ViewOnSite_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { RscEntryLexicalCell as RscEntryLexicalCell_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { RscEntryLexicalField as RscEntryLexicalField_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { LexicalDiffComponent as LexicalDiffComponent_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { FixedToolbarFeatureClient as FixedToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { InlineToolbarFeatureClient as InlineToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { HorizontalRuleFeatureClient as HorizontalRuleFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UploadFeatureClient as UploadFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { BlockquoteFeatureClient as BlockquoteFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { RelationshipFeatureClient as RelationshipFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { LinkFeatureClient as LinkFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ChecklistFeatureClient as ChecklistFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { OrderedListFeatureClient as OrderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UnorderedListFeatureClient as UnorderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { IndentFeatureClient as IndentFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { AlignFeatureClient as AlignFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { HeadingFeatureClient as HeadingFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ParagraphFeatureClient as ParagraphFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { InlineCodeFeatureClient as InlineCodeFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { SuperscriptFeatureClient as SuperscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { SubscriptFeatureClient as SubscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { StrikethroughFeatureClient as StrikethroughFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UnderlineFeatureClient as UnderlineFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { BoldFeatureClient as BoldFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ItalicFeatureClient as ItalicFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { PublicationCell as PublicationCell_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { PublicationPanel as PublicationPanel_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { QueryParametersField as QueryParametersField_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { RouteLiveness as RouteLiveness_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { RouteTreeLink as RouteTreeLink_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { FileUploadField as FileUploadField_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { UploadThumbnailCell as UploadThumbnailCell_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { AllowedBlockTypesField as AllowedBlockTypesField_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { EmptyPositionWarning as EmptyPositionWarning_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { CwaNavLinks as CwaNavLinks_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { StartPanel as StartPanel_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { RouteTreeView as RouteTreeView_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { OrphansView as OrphansView_4113cd7e43998b7f44a42586abebc5e4 } from 'payload-cwa/admin'
import { CollectionCards as CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1 } from '@payloadcms/next/rsc'

/** @type import('payload').ImportMap */
export const importMap = {
  "payload-cwa/admin#PageBuilderField": PageBuilderField_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#ReferenceFromTitleField": ReferenceFromTitleField_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#OptionalCheckboxField": OptionalCheckboxField_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#RouteJoinField": RouteJoinField_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#GenerateRoute": GenerateRoute_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#ViewOnSite": ViewOnSite_4113cd7e43998b7f44a42586abebc5e4,
  "@payloadcms/richtext-lexical/rsc#RscEntryLexicalCell": RscEntryLexicalCell_44fe37237e0ebf4470c9990d8cb7b07e,
  "@payloadcms/richtext-lexical/rsc#RscEntryLexicalField": RscEntryLexicalField_44fe37237e0ebf4470c9990d8cb7b07e,
  "@payloadcms/richtext-lexical/rsc#LexicalDiffComponent": LexicalDiffComponent_44fe37237e0ebf4470c9990d8cb7b07e,
  "@payloadcms/richtext-lexical/client#FixedToolbarFeatureClient": FixedToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#InlineToolbarFeatureClient": InlineToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#HorizontalRuleFeatureClient": HorizontalRuleFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UploadFeatureClient": UploadFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#BlockquoteFeatureClient": BlockquoteFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#RelationshipFeatureClient": RelationshipFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#LinkFeatureClient": LinkFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ChecklistFeatureClient": ChecklistFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#OrderedListFeatureClient": OrderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UnorderedListFeatureClient": UnorderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#IndentFeatureClient": IndentFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#AlignFeatureClient": AlignFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#HeadingFeatureClient": HeadingFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ParagraphFeatureClient": ParagraphFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#InlineCodeFeatureClient": InlineCodeFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#SuperscriptFeatureClient": SuperscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#SubscriptFeatureClient": SubscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#StrikethroughFeatureClient": StrikethroughFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UnderlineFeatureClient": UnderlineFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#BoldFeatureClient": BoldFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ItalicFeatureClient": ItalicFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "payload-cwa/admin#PublicationCell": PublicationCell_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#PublicationPanel": PublicationPanel_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#QueryParametersField": QueryParametersField_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#RouteLiveness": RouteLiveness_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#RouteTreeLink": RouteTreeLink_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#FileUploadField": FileUploadField_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#UploadThumbnailCell": UploadThumbnailCell_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#AllowedBlockTypesField": AllowedBlockTypesField_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#EmptyPositionWarning": EmptyPositionWarning_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#CwaNavLinks": CwaNavLinks_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#StartPanel": StartPanel_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#RouteTreeView": RouteTreeView_4113cd7e43998b7f44a42586abebc5e4,
  "payload-cwa/admin#OrphansView": OrphansView_4113cd7e43998b7f44a42586abebc5e4,
  "@payloadcms/next/rsc#CollectionCards": CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1
}
