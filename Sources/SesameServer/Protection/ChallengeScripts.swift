import Hummingbird

/// The hosted pages' first-party challenge solver (docs/abuse-protection.md), served by this
/// origin so the Content-Security-Policy stays `script-src 'self'` (``ContentSecurityPolicy``):
/// - `/assets/challenge.js` finds the page's challenge (``ChallengeBlock``), starts one Web
///   Worker per core (`navigator.hardwareConcurrency`, at most 8), shows a progress bar, fills
///   `challenge_nonce` when a worker finds it, and submits the form if the user already pressed
///   the button. A clear pass (difficulty 0) is answered at once.
/// - `/assets/challenge-worker.js` hashes SHA-256(seed ‖ 8-byte big-endian nonce) with Web
///   Crypto (`crypto.subtle.digest`, 256 digests in flight per batch) over its share of the
///   nonces (start, start + step, …) until one has the difficulty's leading zero bits.
///
/// Without JavaScript the page's `<noscript>` says that the check needs it.
enum ChallengeScripts {
    static let pagePath = PageScripts.challenge
    static let workerPath = PageScripts.challengeWorker

    static func page(_ request: Request, context: SesameRequestContext) -> Response { serve(pageSource) }
    static func worker(_ request: Request, context: SesameRequestContext) -> Response { serve(workerSource) }

    private static func serve(_ source: String) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=3600",
        ]
        SecurityHeaders.apply(to: &headers, policy: .strict)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: source)))
    }

    static let pageSource = """
        (function () {
          'use strict';
          var box = document.getElementById('sesame-challenge');
          if (!box) { return; }
          var form = box.closest('form');
          var nonceField = form.querySelector('input[name="challenge_nonce"]');
          var bar = document.getElementById('sesame-challenge-progress');
          var kind = box.getAttribute('data-kind');
          var difficulty = parseInt(box.getAttribute('data-difficulty'), 10) || 0;
          var seed = box.getAttribute('data-seed');
          var solved = false;
          var wantsSubmit = false;
          var workers = [];
          box.hidden = false;
          box.setAttribute('data-state', 'solving');
          form.addEventListener('submit', function (event) {
            if (!solved) { event.preventDefault(); wantsSubmit = true; }
          });
          function done(nonce) {
            if (solved) { return; }
            solved = true;
            workers.forEach(function (worker) { worker.terminate(); });
            nonceField.value = nonce;
            bar.value = bar.max;
            box.setAttribute('data-state', 'solved');
            if (wantsSubmit) { form.submit(); }
          }
          if (kind !== 'proof_of_work' || difficulty <= 0 || typeof Worker === 'undefined') {
            done('0');
            return;
          }
          var count = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8));
          var expected = Math.pow(2, difficulty);
          var hashed = [];
          for (var index = 0; index < count; index++) {
            hashed.push(0);
            var worker = new Worker('\(workerPath)');
            worker.onmessage = function (event) {
              if (event.data.nonce !== undefined) { done(event.data.nonce); return; }
              hashed[event.data.index] = event.data.hashed;
              var total = hashed.reduce(function (a, b) { return a + b; }, 0);
              bar.value = Math.min(95, Math.round(100 * total / expected));
            };
            worker.postMessage({ seed: seed, difficulty: difficulty, start: index, step: count, index: index });
            workers.push(worker);
          }
        })();
        """

    static let workerSource = """
        'use strict';
        function decode(text) {
          var base64 = text.replace(/-/g, '+').replace(/_/g, '/');
          while (base64.length % 4) { base64 += '='; }
          var binary = atob(base64);
          var bytes = new Uint8Array(binary.length);
          for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
          return bytes;
        }
        function zeroBits(digest) {
          var bits = 0;
          for (var i = 0; i < digest.length; i++) {
            if (digest[i] === 0) { bits += 8; continue; }
            return bits + Math.clz32(digest[i]) - 24;
          }
          return bits;
        }
        self.onmessage = async function (event) {
          var seed = decode(event.data.seed);
          var difficulty = event.data.difficulty;
          var step = event.data.step;
          var nonce = event.data.start;
          var batch = 256;
          var hashed = 0;
          var inputs = [];
          for (var j = 0; j < batch; j++) {
            var input = new Uint8Array(seed.length + 8);
            input.set(seed);
            inputs.push(input);
          }
          for (;;) {
            var pending = new Array(batch);
            var nonces = new Array(batch);
            for (var k = 0; k < batch; k++) {
              var value = nonce + k * step;
              nonces[k] = value;
              var view = new DataView(inputs[k].buffer);
              view.setUint32(seed.length, Math.floor(value / 4294967296));
              view.setUint32(seed.length + 4, value >>> 0);
              pending[k] = crypto.subtle.digest('SHA-256', inputs[k]);
            }
            nonce += batch * step;
            var digests = await Promise.all(pending);
            for (var m = 0; m < batch; m++) {
              if (zeroBits(new Uint8Array(digests[m])) >= difficulty) {
                self.postMessage({ nonce: String(nonces[m]) });
                return;
              }
            }
            hashed += batch;
            if (hashed % 4096 === 0) { self.postMessage({ index: event.data.index, hashed: hashed }); }
          }
        };
        """
}
