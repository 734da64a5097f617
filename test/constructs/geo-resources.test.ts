import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { newStack, synthOutputs } from './support';
import { GeoResources, GeoResourcesProps, PlaceIndexDataSource, PlaceIndexIntendedUse, VendorOutputs } from '../../src';

const FULL: GeoResourcesProps = {
  maps: [{ name: 'streets', style: 'VectorEsriStreets' }, { name: 'dark.map', style: 'VectorEsriDarkGrayCanvas', description: 'night' }],
  defaultMap: 'dark.map',
  searchIndices: [{ name: 'places' }, { name: 'places_here', dataSource: PlaceIndexDataSource.HERE, intendedUse: PlaceIndexIntendedUse.STORAGE }],
  geofenceCollections: [{ name: 'zones', description: 'delivery zones' }],
};

describe('GeoResources', () => {
  test('creates the Location maps, place indices and geofence collections', () => {
    const { stack } = newStack();
    new GeoResources(stack, 'Geo', FULL);
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::Location::Map', 2);
    template.hasResourceProperties('AWS::Location::Map', { MapName: 'streets', Configuration: { Style: 'VectorEsriStreets' } });
    template.hasResourceProperties('AWS::Location::Map', { MapName: 'dark.map', Description: 'night', Configuration: { Style: 'VectorEsriDarkGrayCanvas' } });
    template.resourceCountIs('AWS::Location::PlaceIndex', 2);
    template.hasResourceProperties('AWS::Location::PlaceIndex', { IndexName: 'places', DataSource: 'Esri', DataSourceConfiguration: { IntendedUse: 'SingleUse' } });
    template.hasResourceProperties('AWS::Location::PlaceIndex', { IndexName: 'places_here', DataSource: 'Here', DataSourceConfiguration: { IntendedUse: 'Storage' } });
    template.resourceCountIs('AWS::Location::GeofenceCollection', 1);
    template.hasResourceProperties('AWS::Location::GeofenceCollection', { CollectionName: 'zones', Description: 'delivery zones' });
  });

  test('writes geo with items and defaults (the first item unless chosen)', () => {
    const { app, stack } = newStack();
    new GeoResources(stack, 'Geo', FULL);
    expect(synthOutputs(app, stack).geo).toEqual({
      vendor_region: 'eu-west-1',
      maps: { items: { 'streets': { style: 'VectorEsriStreets' }, 'dark.map': { style: 'VectorEsriDarkGrayCanvas' } }, default: 'dark.map' },
      search_indices: { items: ['places', 'places_here'], default: 'places' },
      geofence_collections: { items: ['zones'], default: 'zones' },
    });
  });

  test('the typed section names each default defaultName (default is reserved in Java, C# and Go); the file key stays default', () => {
    const { app, stack } = newStack();
    const geo = new GeoResources(stack, 'Geo', FULL);
    expect(geo.outputs.maps?.defaultName).toBe('dark.map');
    expect(geo.outputs.searchIndices?.defaultName).toBe('places');
    expect(geo.outputs.geofenceCollections?.defaultName).toBe('zones');
    expect(Object.keys(geo.outputs.maps ?? {})).not.toContain('default');
    const file = synthOutputs(app, stack).geo;
    expect(Object.keys(file.maps)).toEqual(['items', 'default']);
    expect(Object.keys(file.search_indices)).toEqual(['items', 'default']);
  });

  test('addOutput with defaultName writes the file key default', () => {
    const { app, stack } = newStack();
    VendorOutputs.of(stack).addOutput({
      geo: {
        vendorRegion: 'eu-west-1',
        maps: { items: { streets: {} }, defaultName: 'streets' },
        geofenceCollections: { items: ['zones'], defaultName: 'zones' },
      },
    });
    expect(synthOutputs(app, stack).geo).toEqual({
      vendor_region: 'eu-west-1',
      maps: { items: { streets: {} }, default: 'streets' },
      geofence_collections: { items: ['zones'], default: 'zones' },
    });
  });

  test('addOutput refuses the file key default, naming defaultName', () => {
    const { stack } = newStack();
    const maps = { items: { streets: {} }, default: 'streets' } as any;
    expect(() => VendorOutputs.of(stack).addOutput({ geo: { vendorRegion: 'eu-west-1', maps } })).toThrow(
      /\/geo\/maps\/default: 'default' is the file's spelling; addOutput takes the camelCase property 'defaultName' in \/geo\/maps/,
    );
  });

  test('groups that are not given are not written', () => {
    const { app, stack } = newStack();
    new GeoResources(stack, 'Geo', { searchIndices: [{ name: 'places' }] });
    expect(synthOutputs(app, stack).geo).toEqual({ vendor_region: 'eu-west-1', search_indices: { items: ['places'], default: 'places' } });
    Template.fromStack(stack).resourceCountIs('AWS::Location::Map', 0);
  });

  test('grants: rendering, search and geofence read, each exactly on its resources', () => {
    const { stack } = newStack();
    const geo = new GeoResources(stack, 'Geo', FULL);
    const role = new iam.Role(stack, 'User', { assumedBy: new iam.AccountRootPrincipal() });
    geo.grantMapRendering(role);
    geo.grantSearch(role);
    geo.grantGeofenceRead(role);
    const arn = (r: any) => ({ 'Fn::GetAtt': [stack.getLogicalId(r), 'Arn'] });
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          { Action: ['geo:GetMapStyleDescriptor', 'geo:GetMapTile', 'geo:GetMapSprites', 'geo:GetMapGlyphs'], Effect: 'Allow', Resource: geo.mapResources.map(arn) },
          {
            Action: ['geo:SearchPlaceIndexForText', 'geo:SearchPlaceIndexForPosition', 'geo:SearchPlaceIndexForSuggestions', 'geo:GetPlace'],
            Effect: 'Allow',
            Resource: geo.placeIndexResources.map(arn),
          },
          { Action: ['geo:GetGeofence', 'geo:ListGeofences'], Effect: 'Allow', Resource: arn(geo.geofenceCollectionResources[0]) },
        ],
      },
      Roles: [{ Ref: stack.getLogicalId(role.node.defaultChild as iam.CfnRole) }],
    });
  });

  test('granting a group that is empty is refused', () => {
    const { stack } = newStack();
    const geo = new GeoResources(stack, 'Geo', { maps: [{ name: 'streets' }] });
    const role = new iam.Role(stack, 'User', { assumedBy: new iam.AccountRootPrincipal() });
    expect(() => geo.grantSearch(role)).toThrow('Backend/Geo: there are no search indices to grant access to');
  });

  describe('validation', () => {
    test.each<[string, GeoResourcesProps, string]>([
      ['nothing', {}, 'Backend/Geo: GeoResources needs at least one map, search index or geofence collection'],
      ['a default map that is not a map', { maps: [{ name: 'a' }, { name: 'b' }], defaultMap: 'c' }, 'Backend/Geo: defaultMap must be one of maps (a, b); got "c"'],
      ['a default search index that is not one', { searchIndices: [{ name: 'a' }], defaultSearchIndex: 'b' }, 'Backend/Geo: defaultSearchIndex must be one of searchIndices (a); got "b"'],
      ['a default geofence collection that is not one', { geofenceCollections: [{ name: 'a' }], defaultGeofenceCollection: 'z' }, 'Backend/Geo: defaultGeofenceCollection must be one of geofenceCollections (a); got "z"'],
      ['a default for an empty group', { maps: [{ name: 'a' }], defaultSearchIndex: 'x' }, 'Backend/Geo: defaultSearchIndex is "x" but there are no searchIndices'],
      ['repeated map names', { maps: [{ name: 'a' }, { name: 'a' }] }, 'Backend/Geo: names in maps must be unique; repeated: a'],
      ['repeated index names', { searchIndices: [{ name: 'p' }, { name: 'q' }, { name: 'p' }] }, 'Backend/Geo: names in searchIndices must be unique; repeated: p'],
      ['repeated collection names', { geofenceCollections: [{ name: 'z' }, { name: 'z' }] }, 'Backend/Geo: names in geofenceCollections must be unique; repeated: z'],
      ['a name with a space', { maps: [{ name: 'my map' }] }, 'Backend/Geo: "my map" in maps is not a valid Location resource name: 1 to 100 letters, digits, hyphens, periods and underscores'],
      ['an empty name', { geofenceCollections: [{ name: '' }] }, 'Backend/Geo: "" in geofenceCollections is not a valid Location resource name'],
      ['a bad style', { maps: [{ name: 'a', style: 'Vector Esri' }] }, 'Backend/Geo: the style of map \'a\' must be a Location map style name such as \'VectorEsriStreets\' (got "Vector Esri")'],
    ])('refuses %s', (_, props, message) => {
      const { stack } = newStack();
      expect(() => new GeoResources(stack, 'Geo', props)).toThrow(message);
    });

    test.each([[1, true], [100, true], [101, false]])('a name of %d characters valid: %s', (length, ok) => {
      const { stack } = newStack();
      const make = () => new GeoResources(stack, 'Geo', { searchIndices: [{ name: 'n'.repeat(length) }] });
      if (ok) {
        expect(make).not.toThrow();
      } else {
        expect(make).toThrow('is not a valid Location resource name');
      }
    });
  });
});
