// The example backend's own function, behind GET /dev/hello. While `npm run demo` runs, edit the
// message and save: the sandbox synthesizes again and the next request gets the new answer.
exports.handler = async () => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ message: 'Hello from the example backend' }),
});
