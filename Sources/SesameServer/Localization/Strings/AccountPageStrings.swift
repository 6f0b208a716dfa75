/// The strings of the hosted account pages (``SignUpPage``, ``EmailVerificationPage``,
/// ``PasswordResetPage``): their field labels and hints, notices, buttons and the form-wide error
/// line, in every locale. The page titles `signup.title` and `password_reset.title`
/// stay in the main tables, which the login page shares.
///
/// Kept in their own table, keyed like ``StringTables/all`` and with keys none of those tables
/// use, so that they ship translated without touching the main tables; ``StringTables/served``
/// merges them in for ``StringTableLocalizer``. Each locale has exactly the keys of ``english``
/// and the same `{email}` placeholders. The locales after `it` are in
/// `AccountPageStrings+Translations.swift`. Folding them into the main tables later means moving
/// each locale's lines there and serving ``StringTables/all`` again.
enum AccountPageStrings {
    static let tables: [String: [String: String]] = [
        "ar": arabic,
        "da": danish,
        "de": german,
        "en": english,
        "es": spanish,
        "fi": finnish,
        "fr": french,
        "hu": hungarian,
        "it": italian,
        "ja": japanese,
        "ko": korean,
        "nb": norwegianBokmal,
        "nl": dutch,
        "pt": portuguese,
        "ru": russian,
        "sk": slovak,
        "sv": swedish,
        "zh-Hans": simplifiedChinese,
        "zh-Hant": traditionalChinese,
    ]

    /// English (`en`): the reference every other locale translates.
    static let english: [String: String] = [
        // Form fields shared by the sign-up, email confirmation and password reset pages
        "account.email": "Email address",
        "account.name": "Your name (optional)",
        "account.password_hint": "At least {min} characters. Avoid common passwords and your email address.",
        // Sign-up page (/signup)
        "signup.intro": "Create an account with your email address and a password.",
        "signup.submit": "Create account",
        "signup.have_account": "Already have an account? Sign in",
        // Email confirmation page (/verify-email), shown after sign-up ({email} is the address)
        "verify.title": "Confirm your email address",
        "verify.sent": "We sent a 6-digit code to {email}. Enter it below to confirm your address.",
        "verify.intro": "Enter your email address and the 6-digit code we sent you.",
        "verify.submit": "Confirm",
        "verify.resend": "Send a new code",
        "verify.resent": "If this address belongs to an account that still needs confirming, we sent it a new code.",
        "verify.done.title": "Email address confirmed",
        "verify.done.body": "Your email address is confirmed. You can now sign in.",
        // Password reset page (/password-reset and /password-reset/confirm; {email} is the address)
        "password_reset.intro": "Enter the email address of your account. We will send you a code to choose a new password.",
        "password_reset.submit": "Send code",
        "password_reset.sent": "If an account exists for {email}, we sent it a 6-digit code. Enter it with your new password.",
        "password_reset.new_password": "New password",
        "password_reset.confirm": "Change password",
        "password_reset.done.title": "Password changed",
        "password_reset.done.body": "Your password was changed and you were signed out on every device. Sign in with your new password.",
        // All three pages: the line above a form whose fields are marked invalid
        "page.error": "Check the highlighted information and try again.",
    ]

    /// Arabic (`ar`).
    static let arabic: [String: String] = [
        "account.email": "عنوان البريد الإلكتروني",
        "account.name": "اسمك (اختياري)",
        "account.password_hint": "{min} أحرف على الأقل. تجنّب كلمات المرور الشائعة وعنوان بريدك الإلكتروني.",
        "signup.intro": "أنشئ حسابًا باستخدام عنوان بريدك الإلكتروني وكلمة مرور.",
        "signup.submit": "إنشاء الحساب",
        "signup.have_account": "لديك حساب بالفعل؟ سجّل الدخول",
        "verify.title": "تأكيد عنوان بريدك الإلكتروني",
        "verify.sent": "أرسلنا رمزًا مكوّنًا من 6 أرقام إلى {email}. يُرجى إدخاله أدناه لتأكيد عنوانك.",
        "verify.intro": "يُرجى إدخال عنوان بريدك الإلكتروني والرمز المكوّن من 6 أرقام الذي أرسلناه إليك.",
        "verify.submit": "تأكيد",
        "verify.resend": "إرسال رمز جديد",
        "verify.resent": "إذا كان هذا العنوان يخص حسابًا لم يتم تأكيده بعد، فقد أرسلنا إليه رمزًا جديدًا.",
        "verify.done.title": "تم تأكيد عنوان البريد الإلكتروني",
        "verify.done.body": "تم تأكيد عنوان بريدك الإلكتروني. يمكنك الآن تسجيل الدخول.",
        "password_reset.intro": "يُرجى إدخال عنوان البريد الإلكتروني المرتبط بحسابك. سنرسل إليك رمزًا لاختيار كلمة مرور جديدة.",
        "password_reset.submit": "إرسال الرمز",
        "password_reset.sent": "إذا كان هناك حساب مرتبط بالعنوان {email}، فقد أرسلنا إليه رمزًا مكوّنًا من 6 أرقام. يُرجى إدخاله مع كلمة المرور الجديدة.",
        "password_reset.new_password": "كلمة المرور الجديدة",
        "password_reset.confirm": "تغيير كلمة المرور",
        "password_reset.done.title": "تم تغيير كلمة المرور",
        "password_reset.done.body": "تم تغيير كلمة المرور وتسجيل خروجك من جميع الأجهزة. يُرجى تسجيل الدخول باستخدام كلمة المرور الجديدة.",
        "page.error": "يُرجى التحقق من المعلومات المميّزة والمحاولة مرة أخرى.",
    ]

    /// Danish (`da`).
    static let danish: [String: String] = [
        "account.email": "E-mailadresse",
        "account.name": "Dit navn (valgfrit)",
        "account.password_hint": "Mindst {min} tegn. Undgå almindelige adgangskoder og din e-mailadresse.",
        "signup.intro": "Opret en konto med din e-mailadresse og en adgangskode.",
        "signup.submit": "Opret konto",
        "signup.have_account": "Har du allerede en konto? Log ind",
        "verify.title": "Bekræft din e-mailadresse",
        "verify.sent": "Vi har sendt en 6-cifret kode til {email}. Indtast den nedenfor for at bekræfte din adresse.",
        "verify.intro": "Indtast din e-mailadresse og den 6-cifrede kode, vi har sendt dig.",
        "verify.submit": "Bekræft",
        "verify.resend": "Send en ny kode",
        "verify.resent": "Hvis denne adresse tilhører en konto, der endnu ikke er bekræftet, har vi sendt en ny kode til den.",
        "verify.done.title": "E-mailadressen er bekræftet",
        "verify.done.body": "Din e-mailadresse er bekræftet. Du kan nu logge ind.",
        "password_reset.intro": "Indtast e-mailadressen til din konto. Vi sender dig en kode, så du kan vælge en ny adgangskode.",
        "password_reset.submit": "Send kode",
        "password_reset.sent": "Hvis der findes en konto for {email}, har vi sendt en 6-cifret kode til den. Indtast koden sammen med din nye adgangskode.",
        "password_reset.new_password": "Ny adgangskode",
        "password_reset.confirm": "Skift adgangskode",
        "password_reset.done.title": "Adgangskoden er ændret",
        "password_reset.done.body": "Din adgangskode er ændret, og du er blevet logget ud på alle enheder. Log ind med din nye adgangskode.",
        "page.error": "Kontrollér de markerede oplysninger, og prøv igen.",
    ]

    /// German (`de`).
    static let german: [String: String] = [
        "account.email": "E-Mail-Adresse",
        "account.name": "Ihr Name (optional)",
        "account.password_hint": "Mindestens {min} Zeichen. Vermeiden Sie gängige Passwörter und Ihre E-Mail-Adresse.",
        "signup.intro": "Erstellen Sie ein Konto mit Ihrer E-Mail-Adresse und einem Passwort.",
        "signup.submit": "Konto erstellen",
        "signup.have_account": "Sie haben bereits ein Konto? Anmelden",
        "verify.title": "Bestätigen Sie Ihre E-Mail-Adresse",
        "verify.sent": "Wir haben einen 6-stelligen Code an {email} gesendet. Geben Sie ihn unten ein, um Ihre Adresse zu bestätigen.",
        "verify.intro": "Geben Sie Ihre E-Mail-Adresse und den 6-stelligen Code ein, den wir Ihnen gesendet haben.",
        "verify.submit": "Bestätigen",
        "verify.resend": "Neuen Code senden",
        "verify.resent": "Wenn diese Adresse zu einem Konto gehört, das noch bestätigt werden muss, haben wir einen neuen Code an sie gesendet.",
        "verify.done.title": "E-Mail-Adresse bestätigt",
        "verify.done.body": "Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.",
        "password_reset.intro": "Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir senden Ihnen einen Code, mit dem Sie ein neues Passwort festlegen können.",
        "password_reset.submit": "Code senden",
        "password_reset.sent": "Wenn ein Konto für {email} existiert, haben wir einen 6-stelligen Code an diese Adresse gesendet. Geben Sie ihn zusammen mit Ihrem neuen Passwort ein.",
        "password_reset.new_password": "Neues Passwort",
        "password_reset.confirm": "Passwort ändern",
        "password_reset.done.title": "Passwort geändert",
        "password_reset.done.body": "Ihr Passwort wurde geändert, und Sie wurden auf allen Geräten abgemeldet. Melden Sie sich mit Ihrem neuen Passwort an.",
        "page.error": "Überprüfen Sie die markierten Angaben und versuchen Sie es erneut.",
    ]

    /// Spanish (`es`).
    static let spanish: [String: String] = [
        "account.email": "Dirección de correo electrónico",
        "account.name": "Su nombre (opcional)",
        "account.password_hint": "Al menos {min} caracteres. Evite las contraseñas comunes y su dirección de correo electrónico.",
        "signup.intro": "Cree una cuenta con su dirección de correo electrónico y una contraseña.",
        "signup.submit": "Crear cuenta",
        "signup.have_account": "¿Ya tiene una cuenta? Inicie sesión",
        "verify.title": "Confirme su dirección de correo electrónico",
        "verify.sent": "Hemos enviado un código de 6 dígitos a {email}. Introdúzcalo a continuación para confirmar su dirección.",
        "verify.intro": "Introduzca su dirección de correo electrónico y el código de 6 dígitos que le hemos enviado.",
        "verify.submit": "Confirmar",
        "verify.resend": "Enviar un código nuevo",
        "verify.resent": "Si esta dirección pertenece a una cuenta que aún no se ha confirmado, le hemos enviado un código nuevo.",
        "verify.done.title": "Dirección de correo electrónico confirmada",
        "verify.done.body": "Su dirección de correo electrónico se ha confirmado. Ya puede iniciar sesión.",
        "password_reset.intro": "Introduzca la dirección de correo electrónico de su cuenta. Le enviaremos un código para elegir una contraseña nueva.",
        "password_reset.submit": "Enviar código",
        "password_reset.sent": "Si existe una cuenta para {email}, le hemos enviado un código de 6 dígitos. Introdúzcalo junto con su nueva contraseña.",
        "password_reset.new_password": "Nueva contraseña",
        "password_reset.confirm": "Cambiar la contraseña",
        "password_reset.done.title": "Contraseña cambiada",
        "password_reset.done.body": "Se ha cambiado su contraseña y se ha cerrado su sesión en todos los dispositivos. Inicie sesión con su nueva contraseña.",
        "page.error": "Compruebe la información resaltada e inténtelo de nuevo.",
    ]

    /// Finnish (`fi`).
    static let finnish: [String: String] = [
        "account.email": "Sähköpostiosoite",
        "account.name": "Nimesi (valinnainen)",
        "account.password_hint": "Vähintään {min} merkkiä. Vältä yleisiä salasanoja ja sähköpostiosoitettasi.",
        "signup.intro": "Luo tili sähköpostiosoitteellasi ja salasanalla.",
        "signup.submit": "Luo tili",
        "signup.have_account": "Onko sinulla jo tili? Kirjaudu sisään",
        "verify.title": "Vahvista sähköpostiosoitteesi",
        "verify.sent": "Lähetimme 6-numeroisen koodin osoitteeseen {email}. Vahvista osoitteesi antamalla koodi alla.",
        "verify.intro": "Anna sähköpostiosoitteesi ja 6-numeroinen koodi, jonka lähetimme sinulle.",
        "verify.submit": "Vahvista",
        "verify.resend": "Lähetä uusi koodi",
        "verify.resent": "Jos tämä osoite kuuluu tilille, jota ei ole vielä vahvistettu, lähetimme siihen uuden koodin.",
        "verify.done.title": "Sähköpostiosoite vahvistettu",
        "verify.done.body": "Sähköpostiosoitteesi on vahvistettu. Voit nyt kirjautua sisään.",
        "password_reset.intro": "Anna tilisi sähköpostiosoite. Lähetämme sinulle koodin, jolla voit valita uuden salasanan.",
        "password_reset.submit": "Lähetä koodi",
        "password_reset.sent": "Jos osoitteelle {email} on tili, lähetimme siihen 6-numeroisen koodin. Anna koodi yhdessä uuden salasanasi kanssa.",
        "password_reset.new_password": "Uusi salasana",
        "password_reset.confirm": "Vaihda salasana",
        "password_reset.done.title": "Salasana vaihdettu",
        "password_reset.done.body": "Salasanasi on vaihdettu, ja sinut on kirjattu ulos kaikilla laitteilla. Kirjaudu sisään uudella salasanallasi.",
        "page.error": "Tarkista korostetut tiedot ja yritä uudelleen.",
    ]

    /// French (`fr`).
    static let french: [String: String] = [
        "account.email": "Adresse e-mail",
        "account.name": "Votre nom (facultatif)",
        "account.password_hint": "Au moins {min} caractères. Évitez les mots de passe courants et votre adresse e-mail.",
        "signup.intro": "Créez un compte avec votre adresse e-mail et un mot de passe.",
        "signup.submit": "Créer le compte",
        "signup.have_account": "Vous avez déjà un compte\u{00A0}? Connectez-vous",
        "verify.title": "Confirmez votre adresse e-mail",
        "verify.sent": "Nous avons envoyé un code à 6 chiffres à {email}. Saisissez-le ci-dessous pour confirmer votre adresse.",
        "verify.intro": "Saisissez votre adresse e-mail et le code à 6 chiffres que nous vous avons envoyé.",
        "verify.submit": "Confirmer",
        "verify.resend": "Envoyer un nouveau code",
        "verify.resent": "Si cette adresse correspond à un compte qui doit encore être confirmé, nous lui avons envoyé un nouveau code.",
        "verify.done.title": "Adresse e-mail confirmée",
        "verify.done.body": "Votre adresse e-mail est confirmée. Vous pouvez maintenant vous connecter.",
        "password_reset.intro": "Saisissez l'adresse e-mail de votre compte. Nous vous enverrons un code pour choisir un nouveau mot de passe.",
        "password_reset.submit": "Envoyer le code",
        "password_reset.sent": "Si un compte existe pour {email}, nous lui avons envoyé un code à 6 chiffres. Saisissez-le avec votre nouveau mot de passe.",
        "password_reset.new_password": "Nouveau mot de passe",
        "password_reset.confirm": "Changer le mot de passe",
        "password_reset.done.title": "Mot de passe modifié",
        "password_reset.done.body": "Votre mot de passe a été modifié et vous avez été déconnecté de tous vos appareils. Connectez-vous avec votre nouveau mot de passe.",
        "page.error": "Vérifiez les informations mises en évidence et réessayez.",
    ]

    /// Hungarian (`hu`).
    static let hungarian: [String: String] = [
        "account.email": "E-mail-cím",
        "account.name": "Az Ön neve (nem kötelező)",
        "account.password_hint": "Legalább {min} karakter. Ne használjon gyakori jelszavakat, se az e-mail-címét.",
        "signup.intro": "Hozzon létre fiókot az e-mail-címével és egy jelszóval.",
        "signup.submit": "Fiók létrehozása",
        "signup.have_account": "Már van fiókja? Jelentkezzen be",
        "verify.title": "Erősítse meg e-mail-címét",
        "verify.sent": "Küldtünk egy 6 számjegyű kódot ide: {email}. Írja be alább a címe megerősítéséhez.",
        "verify.intro": "Adja meg e-mail-címét és az általunk küldött 6 számjegyű kódot.",
        "verify.submit": "Megerősítés",
        "verify.resend": "Új kód küldése",
        "verify.resent": "Ha ez a cím egy még meg nem erősített fiókhoz tartozik, új kódot küldtünk rá.",
        "verify.done.title": "E-mail-cím megerősítve",
        "verify.done.body": "E-mail-címe meg van erősítve. Most már bejelentkezhet.",
        "password_reset.intro": "Adja meg fiókja e-mail-címét. Küldünk egy kódot, amellyel új jelszót választhat.",
        "password_reset.submit": "Kód küldése",
        "password_reset.sent": "Ha létezik fiók ehhez a címhez: {email}, küldtünk rá egy 6 számjegyű kódot. Adja meg a kódot az új jelszavával együtt.",
        "password_reset.new_password": "Új jelszó",
        "password_reset.confirm": "Jelszó módosítása",
        "password_reset.done.title": "Jelszó módosítva",
        "password_reset.done.body": "Jelszavát módosítottuk, és minden eszközön kijelentkeztettük. Jelentkezzen be az új jelszavával.",
        "page.error": "Ellenőrizze a kiemelt adatokat, és próbálja újra.",
    ]

    /// Italian (`it`).
    static let italian: [String: String] = [
        "account.email": "Indirizzo email",
        "account.name": "Il suo nome (facoltativo)",
        "account.password_hint": "Almeno {min} caratteri. Eviti le password comuni e il suo indirizzo email.",
        "signup.intro": "Crei un account con il suo indirizzo email e una password.",
        "signup.submit": "Crea account",
        "signup.have_account": "Ha già un account? Acceda",
        "verify.title": "Confermi il suo indirizzo email",
        "verify.sent": "Abbiamo inviato un codice a 6 cifre a {email}. Lo inserisca qui sotto per confermare il suo indirizzo.",
        "verify.intro": "Inserisca il suo indirizzo email e il codice a 6 cifre che le abbiamo inviato.",
        "verify.submit": "Conferma",
        "verify.resend": "Invia un nuovo codice",
        "verify.resent": "Se questo indirizzo appartiene a un account ancora da confermare, gli abbiamo inviato un nuovo codice.",
        "verify.done.title": "Indirizzo email confermato",
        "verify.done.body": "Il suo indirizzo email è confermato. Ora può accedere.",
        "password_reset.intro": "Inserisca l'indirizzo email del suo account. Le invieremo un codice per scegliere una nuova password.",
        "password_reset.submit": "Invia codice",
        "password_reset.sent": "Se esiste un account per {email}, gli abbiamo inviato un codice a 6 cifre. Lo inserisca insieme alla nuova password.",
        "password_reset.new_password": "Nuova password",
        "password_reset.confirm": "Cambia password",
        "password_reset.done.title": "Password cambiata",
        "password_reset.done.body": "La sua password è stata cambiata ed è stato disconnesso da tutti i dispositivi. Acceda con la nuova password.",
        "page.error": "Controlli le informazioni evidenziate e riprovi.",
    ]
}
