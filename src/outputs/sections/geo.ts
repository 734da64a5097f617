/** One map of `geo.maps.items`. */
export interface GeoMapOutputs {
  /**
   * Map style.
   * @default - not written
   */
  readonly style?: string;
}

/** The `geo.maps` group. */
export interface GeoMapsOutputs {
  /** Maps by name. Keys are map names and pass through unchanged. */
  readonly items: { [name: string]: GeoMapOutputs };
  /** Name of the default map; one of `items`. Written as the file's `default`. */
  readonly defaultName: string;
}

/** A `geo.search_indices` or `geo.geofence_collections` group. */
export interface GeoCollectionOutputs {
  /** Names; at least one, items unique. */
  readonly items: string[];
  /** Name of the default; one of `items`. Written as the file's `default`. */
  readonly defaultName: string;
}

/** The `geo` section: maps, search indices and geofence collections. */
export interface GeoOutputs {
  /** Region of the geo resources. */
  readonly vendorRegion: string;
  /** @default - no maps */
  readonly maps?: GeoMapsOutputs;
  /** @default - no search indices */
  readonly searchIndices?: GeoCollectionOutputs;
  /** @default - no geofence collections */
  readonly geofenceCollections?: GeoCollectionOutputs;
}
