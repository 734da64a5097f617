import { Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as location from 'aws-cdk-lib/aws-location';
import { Construct } from 'constructs';
import { GeoMapOutputs, GeoOutputs } from '../outputs/sections/geo';
import { VendorOutputs } from '../outputs/vendor-outputs';

/** Data provider of a place index. */
export enum PlaceIndexDataSource {
  /** Esri. */
  ESRI = 'Esri',
  /** HERE Technologies. */
  HERE = 'Here',
  /** Grab (Southeast Asia). */
  GRAB = 'Grab',
}

/** Whether search results may be stored. */
export enum PlaceIndexIntendedUse {
  /** Results are used once and not stored. */
  SINGLE_USE = 'SingleUse',
  /** Results may be stored (not every data source allows it). */
  STORAGE = 'Storage',
}

/** A map of {@link GeoResources}. */
export interface GeoMapProps {
  /** Name of the map: 1 to 100 letters, digits, hyphens, periods and underscores; unique in the group. */
  readonly name: string;
  /**
   * Map style, e.g. `VectorEsriStreets`, `VectorHereExplore`, `VectorOpenDataStandardLight`.
   * @default 'VectorEsriStreets'
   */
  readonly style?: string;
  /**
   * Description of the map.
   * @default - none
   */
  readonly description?: string;
}

/** A search (place) index of {@link GeoResources}. */
export interface GeoSearchIndexProps {
  /** Name of the index: 1 to 100 letters, digits, hyphens, periods and underscores; unique in the group. */
  readonly name: string;
  /**
   * Data provider.
   * @default PlaceIndexDataSource.ESRI
   */
  readonly dataSource?: PlaceIndexDataSource;
  /**
   * Whether results may be stored.
   * @default PlaceIndexIntendedUse.SINGLE_USE
   */
  readonly intendedUse?: PlaceIndexIntendedUse;
  /**
   * Description of the index.
   * @default - none
   */
  readonly description?: string;
}

/** A geofence collection of {@link GeoResources}. */
export interface GeoGeofenceCollectionProps {
  /** Name of the collection: 1 to 100 letters, digits, hyphens, periods and underscores; unique in the group. */
  readonly name: string;
  /**
   * Description of the collection.
   * @default - none
   */
  readonly description?: string;
}

/** Properties of {@link GeoResources}: at least one map, search index or geofence collection. */
export interface GeoResourcesProps {
  /**
   * Maps.
   * @default - no maps
   */
  readonly maps?: GeoMapProps[];
  /**
   * Name of the default map; one of `maps`.
   * @default - the first map
   */
  readonly defaultMap?: string;
  /**
   * Search (place) indices.
   * @default - no search indices
   */
  readonly searchIndices?: GeoSearchIndexProps[];
  /**
   * Name of the default search index; one of `searchIndices`.
   * @default - the first search index
   */
  readonly defaultSearchIndex?: string;
  /**
   * Geofence collections.
   * @default - no geofence collections
   */
  readonly geofenceCollections?: GeoGeofenceCollectionProps[];
  /**
   * Name of the default geofence collection; one of `geofenceCollections`.
   * @default - the first geofence collection
   */
  readonly defaultGeofenceCollection?: string;
}

const NAME_PATTERN = /^[-._\w]{1,100}$/;

/**
 * Amazon Location maps, search (place) indices and geofence collections, written to the `geo`
 * section of vendor_outputs.json with their defaults; grant methods give identity pool roles
 * map rendering, search and geofence read access.
 *
 * @example
 * const geo = new GeoResources(this, 'Geo', {
 *   maps: [{ name: 'streets', style: 'VectorEsriStreets' }],
 *   searchIndices: [{ name: 'places' }],
 * });
 * geo.grantMapRendering(identityPool.authenticatedRole);
 */
export class GeoResources extends Construct {
  /** The maps, in the order given. */
  public readonly mapResources: location.CfnMap[];
  /** The place indices, in the order given. */
  public readonly placeIndexResources: location.CfnPlaceIndex[];
  /** The geofence collections, in the order given. */
  public readonly geofenceCollectionResources: location.CfnGeofenceCollection[];
  /** The section as written. */
  public readonly outputs: GeoOutputs;

  constructor(scope: Construct, id: string, props: GeoResourcesProps = {}) {
    super(scope, id);
    const maps = props.maps ?? [];
    const indices = props.searchIndices ?? [];
    const collections = props.geofenceCollections ?? [];
    if (maps.length === 0 && indices.length === 0 && collections.length === 0) {
      throw new Error(`${this.node.path}: GeoResources needs at least one map, search index or geofence collection`);
    }
    const defaultMap = checkGroup(this.node.path, 'maps', 'defaultMap', maps.map((m) => m.name), props.defaultMap);
    const defaultIndex = checkGroup(this.node.path, 'searchIndices', 'defaultSearchIndex', indices.map((i) => i.name), props.defaultSearchIndex);
    const defaultCollection = checkGroup(this.node.path, 'geofenceCollections', 'defaultGeofenceCollection', collections.map((c) => c.name), props.defaultGeofenceCollection);
    for (const map of maps) {
      if (map.style !== undefined && !Token.isUnresolved(map.style) && !/^[A-Za-z]+$/.test(map.style)) {
        throw new Error(`${this.node.path}: the style of map '${map.name}' must be a Location map style name such as 'VectorEsriStreets' (got ${JSON.stringify(map.style)})`);
      }
    }

    this.mapResources = maps.map((map) => new location.CfnMap(this, `Map_${map.name}`, {
      mapName: map.name,
      description: map.description,
      configuration: { style: map.style ?? 'VectorEsriStreets' },
    }));
    this.placeIndexResources = indices.map((index) => new location.CfnPlaceIndex(this, `PlaceIndex_${index.name}`, {
      indexName: index.name,
      description: index.description,
      dataSource: index.dataSource ?? PlaceIndexDataSource.ESRI,
      dataSourceConfiguration: { intendedUse: index.intendedUse ?? PlaceIndexIntendedUse.SINGLE_USE },
    }));
    this.geofenceCollectionResources = collections.map((collection) => new location.CfnGeofenceCollection(this, `GeofenceCollection_${collection.name}`, {
      collectionName: collection.name,
      description: collection.description,
    }));

    const items: { [name: string]: GeoMapOutputs } = {};
    for (const map of maps) {
      items[map.name] = { style: map.style ?? 'VectorEsriStreets' };
    }
    this.outputs = {
      vendorRegion: Stack.of(this).region,
      maps: defaultMap !== undefined ? { items, defaultName: defaultMap } : undefined,
      searchIndices: defaultIndex !== undefined ? { items: indices.map((i) => i.name), defaultName: defaultIndex } : undefined,
      geofenceCollections: defaultCollection !== undefined ? { items: collections.map((c) => c.name), defaultName: defaultCollection } : undefined,
    };
    VendorOutputs.of(this).addOutput({ geo: this.outputs });
  }

  /** Grants what a map client needs to render every map (style descriptor, tiles, sprites, glyphs). */
  public grantMapRendering(grantee: iam.IGrantable): iam.Grant {
    return this.grant(grantee, 'maps', this.mapResources.map((m) => m.attrArn),
      ['geo:GetMapStyleDescriptor', 'geo:GetMapTile', 'geo:GetMapSprites', 'geo:GetMapGlyphs']);
  }

  /** Grants searching every place index (text, position, suggestions, place details). */
  public grantSearch(grantee: iam.IGrantable): iam.Grant {
    return this.grant(grantee, 'search indices', this.placeIndexResources.map((i) => i.attrArn),
      ['geo:SearchPlaceIndexForText', 'geo:SearchPlaceIndexForPosition', 'geo:SearchPlaceIndexForSuggestions', 'geo:GetPlace']);
  }

  /** Grants reading the geofences of every geofence collection. */
  public grantGeofenceRead(grantee: iam.IGrantable): iam.Grant {
    return this.grant(grantee, 'geofence collections', this.geofenceCollectionResources.map((c) => c.attrArn),
      ['geo:GetGeofence', 'geo:ListGeofences']);
  }

  private grant(grantee: iam.IGrantable, what: string, resourceArns: string[], actions: string[]): iam.Grant {
    if (resourceArns.length === 0) {
      throw new Error(`${this.node.path}: there are no ${what} to grant access to`);
    }
    return iam.Grant.addToPrincipal({ grantee, actions, resourceArns });
  }
}

/** Checks names (literal, valid, unique) and the default of one group; returns the default. */
function checkGroup(path: string, group: string, defaultProp: string, names: string[], chosen: string | undefined): string | undefined {
  for (const name of names) {
    if (Token.isUnresolved(name)) {
      throw new Error(`${path}: names in ${group} must be known at synth (got the token ${name})`);
    }
    if (!NAME_PATTERN.test(name)) {
      throw new Error(`${path}: ${JSON.stringify(name)} in ${group} is not a valid Location resource name: 1 to 100 letters, digits, hyphens, periods and underscores`);
    }
  }
  const duplicates = names.filter((name, i) => names.indexOf(name) !== i);
  if (duplicates.length > 0) {
    throw new Error(`${path}: names in ${group} must be unique; repeated: ${[...new Set(duplicates)].join(', ')}`);
  }
  if (names.length === 0) {
    if (chosen !== undefined) {
      throw new Error(`${path}: ${defaultProp} is ${JSON.stringify(chosen)} but there are no ${group}`);
    }
    return undefined;
  }
  if (chosen !== undefined && !names.includes(chosen)) {
    throw new Error(`${path}: ${defaultProp} must be one of ${group} (${names.join(', ')}); got ${JSON.stringify(chosen)}`);
  }
  return chosen ?? names[0];
}
