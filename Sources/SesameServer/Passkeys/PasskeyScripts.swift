import Hummingbird

/// The hosted pages' first-party passkey script (docs/passkeys.md), `/assets/passkey.js`, served
/// by this origin so the Content-Security-Policy stays `script-src 'self'; connect-src 'self'`
/// (``ContentSecurityPolicy``). It does nothing where WebAuthn is missing: the page's passkey
/// part stays hidden and the password form works as before.
///
/// - **Sign-in** (`#sesame-passkey`, the login page): fetches request options
///   (`POST /login/passkey` with the form's CSRF token), offers the passkeys in the username
///   field's autofill (conditional mediation, WebAuthn §5.1.4 with `mediation: "conditional"`),
///   and on "Sign in with a passkey" asks with the browser's own sheet. The assertion goes back
///   in `passkey_assertion` (WebAuthn §5.1.8 `AuthenticationResponseJSON`).
/// - **Second factor** (the MFA page's `passkey` button): options for the session's user
///   (`POST /login/passkey` with `auth_session`), the assertion in `passkey_assertion` of the
///   MFA form.
/// - **Registration** (`#sesame-passkey-add`, the account's passkeys page): fetches creation
///   options (`POST /account/passkeys/options`), calls `navigator.credentials.create()`, and
///   posts the result in `passkey_registration` (`RegistrationResponseJSON`).
enum PasskeyScripts {
    static let path = PageScripts.passkey

    static func serve(_ request: Request, context: SesameRequestContext) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=3600",
        ]
        SecurityHeaders.apply(to: &headers, policy: .strict)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: source)))
    }

    static let source = """
        (function () {
          'use strict';
          if (!window.PublicKeyCredential || !navigator.credentials) { return; }
          function toBuffer(text) {
            var base64 = text.replace(/-/g, '+').replace(/_/g, '/');
            while (base64.length % 4) { base64 += '='; }
            var bytes = atob(base64);
            var out = new Uint8Array(bytes.length);
            for (var i = 0; i < bytes.length; i++) { out[i] = bytes.charCodeAt(i); }
            return out.buffer;
          }
          function toText(buffer) {
            var bytes = new Uint8Array(buffer);
            var text = '';
            for (var i = 0; i < bytes.length; i++) { text += String.fromCharCode(bytes[i]); }
            return btoa(text).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
          }
          function descriptors(list) {
            return (list || []).map(function (item) {
              return { type: item.type, id: toBuffer(item.id), transports: item.transports };
            });
          }
          function fetchOptions(form, path) {
            var body = new URLSearchParams();
            body.set('csrf_token', form.elements.csrf_token.value);
            return fetch(path, { method: 'POST', body: body, credentials: 'same-origin' }).then(function (response) {
              if (!response.ok) { throw new Error('options ' + response.status); }
              return response.json();
            });
          }
          function submit(form, field, value) {
            form.elements[field].value = JSON.stringify(value);
            form.submit();
          }
          function requestOptions(json) {
            return {
              challenge: toBuffer(json.challenge), timeout: json.timeout, rpId: json.rpId,
              userVerification: json.userVerification, allowCredentials: descriptors(json.allowCredentials)
            };
          }
          function assertionJSON(credential) {
            var r = credential.response;
            return {
              id: credential.id, rawId: toText(credential.rawId), type: credential.type,
              authenticatorAttachment: credential.authenticatorAttachment || null,
              response: {
                clientDataJSON: toText(r.clientDataJSON), authenticatorData: toText(r.authenticatorData),
                signature: toText(r.signature), userHandle: r.userHandle ? toText(r.userHandle) : null
              }
            };
          }

          var signIn = document.getElementById('sesame-passkey');
          if (signIn) {
            var pending = null;
            var answer = function (credential) { submit(signIn, 'passkey_assertion', assertionJSON(credential)); };
            fetchOptions(signIn, '/login/passkey').then(function (json) {
              signIn.hidden = false;
              document.getElementById('sesame-passkey-button').addEventListener('click', function () {
                if (pending) { pending.abort(); pending = null; }
                fetchOptions(signIn, '/login/passkey').then(function (fresh) {
                  return navigator.credentials.get({ publicKey: requestOptions(fresh) });
                }).then(answer).catch(function () {});
              });
              if (PublicKeyCredential.isConditionalMediationAvailable) {
                PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
                  if (!available) { return; }
                  pending = new AbortController();
                  navigator.credentials.get({ publicKey: requestOptions(json), mediation: 'conditional', signal: pending.signal })
                    .then(answer).catch(function () {});
                });
              }
            }).catch(function () {});
          }

          var mfaButton = document.querySelector('button[name="mfa_method"][value="passkey"]');
          if (mfaButton) {
            var mfaForm = mfaButton.closest('form');
            mfaButton.addEventListener('click', function (event) {
              event.preventDefault();
              var body = new URLSearchParams();
              body.set('csrf_token', mfaForm.elements.csrf_token.value);
              body.set('auth_session', mfaForm.elements.auth_session.value);
              fetch('/login/passkey', { method: 'POST', body: body, credentials: 'same-origin' }).then(function (response) {
                if (!response.ok) { throw new Error('options ' + response.status); }
                return response.json();
              }).then(function (json) {
                return navigator.credentials.get({ publicKey: requestOptions(json) });
              }).then(function (credential) {
                submit(mfaForm, 'passkey_assertion', assertionJSON(credential));
              }).catch(function () {});
            });
          }

          var add = document.getElementById('sesame-passkey-add');
          if (add) {
            add.hidden = false;
            document.getElementById('sesame-passkey-add-button').addEventListener('click', function () {
              fetchOptions(add, '/account/passkeys/options').then(function (json) {
                return navigator.credentials.create({ publicKey: {
                  rp: json.rp, challenge: toBuffer(json.challenge), pubKeyCredParams: json.pubKeyCredParams,
                  timeout: json.timeout, attestation: json.attestation, authenticatorSelection: json.authenticatorSelection,
                  user: { id: toBuffer(json.user.id), name: json.user.name, displayName: json.user.displayName },
                  excludeCredentials: descriptors(json.excludeCredentials)
                } });
              }).then(function (credential) {
                var r = credential.response;
                submit(add, 'passkey_registration', {
                  id: credential.id, rawId: toText(credential.rawId), type: credential.type,
                  authenticatorAttachment: credential.authenticatorAttachment || null,
                  response: {
                    clientDataJSON: toText(r.clientDataJSON), attestationObject: toText(r.attestationObject),
                    transports: r.getTransports ? r.getTransports() : []
                  }
                });
              }).catch(function (error) {
                var status = document.getElementById('sesame-passkey-status');
                if (status) { status.textContent = String(error && error.name || error); }
              });
            });
          }
        })();
        """
}
