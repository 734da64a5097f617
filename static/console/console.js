// The console page of `vendor-outputs serve`: the API Gateway console's TEST, run on the local server.
// Plain script, no framework; every text from the server is set with textContent (never as HTML).
'use strict';

(function () {
  /** Methods a test of an ANY method can use. */
  var ANY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

  var state = { apis: [], unserved: [], apiId: null, selected: null };

  function byId(id) {
    return document.getElementById(id);
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function showError(id, message) {
    var node = byId(id);
    node.textContent = message || '';
    node.hidden = !message;
  }

  /** GET or POST a console endpoint; resolves with {status, body} (body parsed JSON). */
  function call(path, form) {
    var init = { cache: 'no-store', headers: {} };
    if (form !== undefined) {
      init.method = 'POST';
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(form);
    }
    return fetch(path, init).then(function (response) {
      return response.json().then(function (body) {
        return { status: response.status, body: body };
      });
    });
  }

  // ---- Resources -------------------------------------------------------------------------------

  function currentApi() {
    for (var i = 0; i < state.apis.length; i++) {
      if (state.apis[i].id === state.apiId) {
        return state.apis[i];
      }
    }
    return state.apis[0];
  }

  function loadApis() {
    return call('api/apis').then(function (answer) {
      if (answer.status !== 200) {
        throw new Error(answer.body.message);
      }
      state.apis = answer.body.apis;
      state.unserved = answer.body.unserved || [];
      renderApiPicker();
      renderTree();
      renderUnserved();
      showError('page-error', state.apis.length === 0 ? 'The server serves no API.' : '');
    });
  }

  function renderUnserved() {
    var section = byId('unserved');
    var list = byId('unserved-list');
    list.textContent = '';
    state.unserved.forEach(function (part) {
      var item = element('li', 'unserved-part');
      item.appendChild(element('span', 'unserved-kind', part.kind));
      item.appendChild(element('span', 'unserved-label', part.label));
      item.appendChild(element('span', 'unserved-reason', part.reason));
      list.appendChild(item);
    });
    byId('unserved-count').textContent = String(state.unserved.length);
    section.hidden = state.unserved.length === 0;
  }

  function renderApiPicker() {
    var select = byId('api-select');
    select.textContent = '';
    state.apis.forEach(function (api) {
      var label = api.name + ' (' + (api.constructPath || api.id) + ') \u00b7 ' + (api.kind === 'WEBSOCKET' ? 'WebSocket' : api.kind || 'REST') + ' API';
      var option = element('option', '', label);
      option.value = api.id;
      select.appendChild(option);
    });
    var api = currentApi();
    state.apiId = api ? api.id : null;
    select.value = state.apiId || '';
    select.disabled = state.apis.length < 2;
  }

  function methodKey(method, path) {
    return method + ' ' + path;
  }

  function renderTree() {
    var tree = byId('tree');
    tree.textContent = '';
    var api = currentApi();
    if (!api) {
      selectMethod(null);
      return;
    }
    var found = null;
    (function add(resource, parent, level) {
      var item = element('li', 'resource');
      item.setAttribute('role', 'treeitem');
      item.setAttribute('aria-level', String(level));
      item.tabIndex = -1;
      item.appendChild(element('span', 'resource-path', resource.path));
      var group = element('ul');
      group.setAttribute('role', 'group');
      resource.methods.forEach(function (method) {
        var entry = element('li', 'method');
        entry.setAttribute('role', 'treeitem');
        entry.setAttribute('aria-level', String(level + 1));
        entry.setAttribute('aria-selected', 'false');
        entry.tabIndex = -1;
        entry.dataset.key = methodKey(method.httpMethod, resource.path);
        entry.appendChild(element('span', 'verb verb-' + method.httpMethod.toLowerCase(), method.httpMethod));
        var target = element('span', 'method-target', method.integration);
        target.title = method.integration;
        entry.appendChild(target);
        var label = method.httpMethod + ' ' + resource.path + ', ' + method.integration;
        if (method.notRunnable) {
          var mark = element('span', 'not-runnable', 'cannot run locally');
          mark.title = method.notRunnable;
          entry.appendChild(mark);
          label += ', cannot run locally: ' + method.notRunnable;
        }
        entry.setAttribute('aria-label', label);
        entry.addEventListener('click', function () {
          focusItem(entry);
          selectMethod({ resource: resource, method: method });
        });
        group.appendChild(entry);
        if (state.selected && entry.dataset.key === methodKey(state.selected.method.httpMethod, state.selected.resource.path)) {
          found = { resource: resource, method: method };
        }
      });
      resource.children.forEach(function (child) {
        add(child, group, level + 1);
      });
      item.appendChild(group);
      parent.appendChild(item);
    })(api.root, tree, 1);
    selectMethod(found);
    var items = treeItems();
    var active = tree.querySelector('[aria-selected="true"]') || tree.querySelector('.method') || items[0];
    if (active) {
      active.tabIndex = 0;
    }
  }

  function treeItems() {
    return Array.prototype.slice.call(byId('tree').querySelectorAll('[role="treeitem"]'));
  }

  function focusItem(item) {
    treeItems().forEach(function (other) {
      other.tabIndex = other === item ? 0 : -1;
    });
    item.focus();
  }

  function onTreeKey(event) {
    var items = treeItems();
    var index = items.indexOf(document.activeElement);
    if (index < 0) {
      return;
    }
    var next = null;
    switch (event.key) {
      case 'ArrowDown': next = items[Math.min(index + 1, items.length - 1)]; break;
      case 'ArrowUp': next = items[Math.max(index - 1, 0)]; break;
      case 'Home': next = items[0]; break;
      case 'End': next = items[items.length - 1]; break;
      case 'Enter':
      case ' ':
        if (items[index].classList.contains('method')) {
          items[index].click();
          byId('query').focus();
        }
        event.preventDefault();
        return;
      default:
        return;
    }
    event.preventDefault();
    focusItem(next);
  }

  // ---- Method test -----------------------------------------------------------------------------

  function selectMethod(selection) {
    if (showWebSocketPanel()) {
      return;
    }
    state.selected = selection;
    treeItems().forEach(function (item) {
      if (item.classList.contains('method')) {
        var on = selection !== null && item.dataset.key === methodKey(selection.method.httpMethod, selection.resource.path);
        item.setAttribute('aria-selected', on ? 'true' : 'false');
      }
    });
    byId('test-form').hidden = selection === null;
    byId('no-method').hidden = selection !== null;
    if (selection === null) {
      byId('report').hidden = true;
      return;
    }
    var method = selection.method;
    var summary = method.httpMethod + ' ' + selection.resource.path + ' \u2192 ' + method.integration
      + ' \u00b7 Authorization: ' + method.authorizationType + (method.apiKeyRequired ? ' \u00b7 API key required' : '');
    byId('method-summary').textContent = summary;
    byId('execution-title').textContent = 'Test ' + method.httpMethod + ' ' + selection.resource.path;
    var select = byId('method');
    if (select.dataset.for !== methodKey(method.httpMethod, selection.resource.path)) {
      select.textContent = '';
      // An HTTP API's $default route takes any method, as ANY does.
      var any = method.httpMethod === 'ANY' || method.httpMethod === '$default';
      (any ? ANY_METHODS : [method.httpMethod]).forEach(function (name) {
        select.appendChild(element('option', '', name));
      });
      select.disabled = !any;
      select.dataset.for = methodKey(method.httpMethod, selection.resource.path);
      byId('path').value = selection.resource.path;
      byId('report').hidden = true;
      showError('form-error', '');
    }
  }

  function runTest(event) {
    event.preventDefault();
    if (!state.selected) {
      return;
    }
    var path = byId('path').value.trim();
    if (/\{[^}]*\}/.test(path)) {
      showError('form-error', 'Replace ' + path.match(/\{[^}]*\}/)[0] + ' in Path with a value, e.g. /items/42.');
      byId('path').focus();
      return;
    }
    showError('form-error', '');
    var button = byId('test-button');
    button.disabled = true;
    button.textContent = 'Testing\u2026';
    call('api/test-invoke', {
      api: state.apiId,
      method: byId('method').value,
      path: path,
      query: byId('query').value.trim(),
      headers: byId('headers').value,
      body: byId('body').value,
    }).then(function (answer) {
      if (answer.status !== 200) {
        throw new Error(answer.body.message);
      }
      renderReport(answer.body);
    }).catch(function (error) {
      showError('form-error', 'The test did not run: ' + error.message);
    }).then(function () {
      button.disabled = false;
      button.textContent = 'Test';
    });
  }

  /** The body as the console shows it: JSON indented, anything else as it came. */
  function formatBody(text) {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (error) {
      return text;
    }
  }

  function renderReport(result) {
    byId('r-request').textContent = result.request;
    byId('r-status').textContent = String(result.status);
    byId('r-status').className = result.status < 400 ? 'status-ok' : 'status-error';
    byId('r-latency').textContent = result.latency + ' ms';
    byId('r-body').textContent = result.body === '' ? '(no body)' : formatBody(result.body);
    var lines = [];
    Object.keys(result.multiValueHeaders).forEach(function (name) {
      result.multiValueHeaders[name].forEach(function (value) {
        lines.push(name + ': ' + value);
      });
    });
    byId('r-headers').textContent = lines.join('\n');
    byId('r-log').textContent = result.log;
    byId('report').hidden = false;
  }

  // ---- vendor_outputs.json ---------------------------------------------------------------------

  function loadOutputs() {
    return call('api/outputs').then(function (answer) {
      renderOutputs(answer.body);
    });
  }

  function list(id, items, empty) {
    var node = byId(id);
    node.textContent = '';
    (items.length ? items : [empty]).forEach(function (text) {
      node.appendChild(element('li', items.length ? '' : 'none', text));
    });
  }

  function renderOutputs(status) {
    var validity = byId('o-validity');
    if (status.file === null) {
      byId('o-file').textContent = 'This server writes no vendor_outputs.json: start it with --write-outputs DIR, or use vendor-outputs sandbox.';
      validity.textContent = '';
      validity.className = '';
      byId('o-problems').textContent = '';
      list('o-pending', [], 'None');
      byId('o-details').hidden = true;
      return;
    }
    byId('o-file').textContent = status.file;
    byId('o-details').hidden = status.document === null;
    byId('o-document').textContent = status.document === null ? '' : JSON.stringify(status.document, null, 2);
    if (!status.exists && status.problems.length === 0) {
      validity.textContent = 'Not written yet.';
      validity.className = 'status-error';
    } else {
      validity.textContent = status.valid ? 'Valid against the schema (pending values accepted).' : status.problems.length + ' problem(s):';
      validity.className = status.valid ? 'status-ok' : 'status-error';
    }
    byId('o-problems').textContent = '';
    if (status.problems.length) {
      list('o-problems', status.problems, '');
    }
    list('o-pending', status.pending, 'None: every value is known locally.');
  }

  // ---- WebSocket panel -----------------------------------------------------------------------------

  var socket = null;

  /** Shows the panel (and hides the method test) when the API picked is a WebSocket API; true then. */
  function showWebSocketPanel() {
    var api = currentApi();
    var on = !!api && api.kind === 'WEBSOCKET';
    byId('ws-panel').hidden = !on;
    if (!on) {
      return false;
    }
    byId('test-form').hidden = true;
    byId('report').hidden = true;
    byId('no-method').hidden = true;
    byId('execution-title').textContent = 'WebSocket: ' + api.name;
    var select = byId('ws-url');
    if (select.dataset.for !== api.id) {
      select.textContent = '';
      api.urls.forEach(function (url) {
        var ws = url.replace(/^http/, 'ws').replace(/\/$/, '');
        select.appendChild(element('option', '', ws));
      });
      select.dataset.for = api.id;
    }
    return true;
  }

  function logMessage(direction, text, route) {
    var item = element('li', 'ws-entry ws-' + direction);
    item.appendChild(element('span', 'ws-direction', direction === 'in' ? '\u2190' : direction === 'out' ? '\u2192' : '\u00b7'));
    if (route !== undefined) {
      item.appendChild(element('span', 'ws-route', route === null ? 'no route (Forbidden)' : route));
    }
    item.appendChild(element('span', 'ws-text', text));
    byId('ws-log').appendChild(item);
  }

  function setConnected(connected, status) {
    byId('ws-connect').textContent = connected ? 'Disconnect' : 'Connect';
    byId('ws-send').disabled = !connected;
    byId('ws-status').textContent = status;
  }

  function toggleConnection() {
    if (socket !== null) {
      socket.close(1000, 'console');
      return;
    }
    var query = byId('ws-query').value.trim();
    var url = byId('ws-url').value + (query ? '?' + query.replace(/^\?/, '') : '');
    setConnected(false, 'Connecting to ' + url + '\u2026');
    var opened = false;
    socket = new WebSocket(url);
    socket.addEventListener('open', function () {
      opened = true;
      setConnected(true, 'Connected to ' + url);
      logMessage('note', 'connected ($connect)');
    });
    socket.addEventListener('message', function (event) {
      logMessage('in', String(event.data));
    });
    socket.addEventListener('close', function (event) {
      socket = null;
      setConnected(false, opened ? 'Closed: ' + event.code + (event.reason ? ' ' + event.reason : '') : 'Refused: the handshake was not accepted (see the terminal)');
      logMessage('note', opened ? 'closed ' + event.code + ' ($disconnect)' : 'handshake refused');
    });
  }

  function sendMessage() {
    var text = byId('ws-message').value;
    var api = currentApi();
    call('api/websocket-route', { api: api.id, message: text }).then(function (answer) {
      logMessage('out', text, answer.status === 200 ? answer.body.routeKey : undefined);
      if (socket !== null) {
        socket.send(text);
      }
    });
  }

  // ---- Start ---------------------------------------------------------------------------------------

  function reload() {
    return Promise.all([loadApis(), loadOutputs()]).catch(function (error) {
      showError('page-error', 'The console could not reach the local server: ' + error.message);
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    byId('tree').addEventListener('keydown', onTreeKey);
    byId('test-form').addEventListener('submit', runTest);
    byId('reload').addEventListener('click', reload);
    byId('ws-connect').addEventListener('click', toggleConnection);
    byId('ws-send').addEventListener('click', sendMessage);
    byId('api-select').addEventListener('change', function (event) {
      state.apiId = event.target.value;
      state.selected = null;
      renderTree();
      showWebSocketPanel();
    });
    document.addEventListener('visibilitychange', function () {
      if (document.visibilityState === 'visible') {
        reload();
      }
    });
    reload();
  });
})();
