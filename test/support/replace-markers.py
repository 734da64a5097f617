# Runs the marker substitution of aws-cdk-lib's own BucketDeployment handler on one file, in place,
# as the deployed custom resource does. Only boto3, which the substitution does not use, is an
# empty stand-in, so the handler module loads without AWS.
#
# Usage: python3 replace-markers.py HANDLER_INDEX_PY FILE MARKERS_JSON MARKERS_CONFIG_JSON
# Prints 'escape' (releases with a markers config) or 'parse' (2.189: parses JSON, writes it again).
import importlib.util
import inspect
import json
import sys
import types

sys.modules['boto3'] = types.SimpleNamespace(client=lambda *args, **kwargs: None)
spec = importlib.util.spec_from_file_location('handler', sys.argv[1])
handler = importlib.util.module_from_spec(spec)
spec.loader.exec_module(handler)
markers = json.loads(sys.argv[3])
config = json.loads(sys.argv[4])
if len(inspect.signature(handler.replace_markers).parameters) >= 3:
    handler.replace_markers(sys.argv[2], markers, config)
    print('escape')
else:
    handler.replace_markers(sys.argv[2], markers)
    print('parse')
