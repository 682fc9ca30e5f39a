/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the bff's API; `/api` when unset. */
  readonly VITE_API_BASE_URL?: string;
  /** Seller-centre address custom_payment users are sent to from other domains; unset: off. */
  readonly VITE_SELLER_CENTRE_URL?: string;
  /** Comma-separated host names that are custom-payment domains. */
  readonly VITE_CUSTOM_PAYMENT_HOSTS?: string;
  /** "false" turns off the bulk v3 capability (the Bulk campaigns menu item for every seller with get_campaigns). */
  readonly VITE_BULK_V3?: string;
  /** The storefront's address, where the store list links each shop (`{url}/s/{slug}/`); default http://127.0.0.1:8082. */
  readonly VITE_STOREFRONT_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
