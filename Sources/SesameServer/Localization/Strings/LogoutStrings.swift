/// The strings of the RP-Initiated Logout pages (``EndSessionEndpoint``): the confirmation asked
/// without a valid `id_token_hint` (RP-Initiated Logout 1.0 §2) and the refusal of a
/// `post_logout_redirect_uri` that cannot be honoured (§3), in every locale.
///
/// Kept in their own table, keyed like ``StringTables/all`` and with keys none of those tables
/// use, so that they ship translated without touching the main tables; ``StringTables/served``
/// merges them in for ``StringTableLocalizer``. Folding them into the main tables later means
/// moving each locale's lines there and serving ``StringTables/all`` again.
enum LogoutStrings {
    static let tables: [String: [String: String]] = [
        "ar": [
            "logout.confirm.title": "تسجيل الخروج؟",
            "logout.confirm.body": "هل تريد تسجيل الخروج؟ إذا لم تطلب تسجيل الخروج، فأغلق هذه النافذة لتبقى مسجّل الدخول.",
            "logout.confirm.submit": "تسجيل الخروج",
            "logout.redirect_unregistered": "ما زلت مسجّل الدخول. طلب التطبيق إعادتك إلى عنوان غير مسجّل له، لذلك لم يتم تسجيل خروجك. يُرجى التواصل مع مطوّر التطبيق.",
            "logout.redirect_unidentified": "ما زلت مسجّل الدخول. طلب التطبيق إعادتك إلى عنوان دون أن يحدّد هويته، لذلك تعذّر التحقق من العنوان ولم يتم تسجيل خروجك. يُرجى التواصل مع مطوّر التطبيق.",
        ],
        "da": [
            "logout.confirm.title": "Log ud?",
            "logout.confirm.body": "Vil du logge ud? Hvis du ikke har bedt om at logge ud, skal du lukke dette vindue for at forblive logget ind.",
            "logout.confirm.submit": "Log ud",
            "logout.redirect_unregistered": "Du er stadig logget ind. Appen bad om at sende dig tilbage til en adresse, der ikke er registreret for den, så du blev ikke logget ud. Kontakt appens udvikler.",
            "logout.redirect_unidentified": "Du er stadig logget ind. Appen bad om at sende dig tilbage til en adresse uden at oplyse, hvilken app den er, så adressen kan ikke kontrolleres, og du blev ikke logget ud. Kontakt appens udvikler.",
        ],
        "de": [
            "logout.confirm.title": "Abmelden?",
            "logout.confirm.body": "Möchten Sie sich abmelden? Wenn Sie die Abmeldung nicht angefordert haben, schließen Sie dieses Fenster, um angemeldet zu bleiben.",
            "logout.confirm.submit": "Abmelden",
            "logout.redirect_unregistered": "Sie sind weiterhin angemeldet. Die App wollte Sie zu einer Adresse zurückleiten, die für sie nicht registriert ist, daher wurden Sie nicht abgemeldet. Wenden Sie sich an den Entwickler der App.",
            "logout.redirect_unidentified": "Sie sind weiterhin angemeldet. Die App wollte Sie zu einer Adresse zurückleiten, ohne anzugeben, welche App sie ist. Die Adresse kann daher nicht geprüft werden, und Sie wurden nicht abgemeldet. Wenden Sie sich an den Entwickler der App.",
        ],
        "en": [
            "logout.confirm.title": "Sign out?",
            "logout.confirm.body": "Do you want to sign out? If you did not ask to sign out, close this window to stay signed in.",
            "logout.confirm.submit": "Sign out",
            "logout.redirect_unregistered": "You are still signed in. The app asked to return you to an address that is not registered for it, so you were not signed out. Contact the app's developer.",
            "logout.redirect_unidentified": "You are still signed in. The app asked to return you to an address without saying which app it is, so the address cannot be checked and you were not signed out. Contact the app's developer.",
        ],
        "es": [
            "logout.confirm.title": "¿Cerrar sesión?",
            "logout.confirm.body": "¿Desea cerrar la sesión? Si no ha pedido cerrar la sesión, cierre esta ventana para mantener la sesión iniciada.",
            "logout.confirm.submit": "Cerrar sesión",
            "logout.redirect_unregistered": "Su sesión sigue iniciada. La aplicación pidió devolverle a una dirección que no está registrada para ella, por lo que no se ha cerrado su sesión. Póngase en contacto con el desarrollador de la aplicación.",
            "logout.redirect_unidentified": "Su sesión sigue iniciada. La aplicación pidió devolverle a una dirección sin indicar qué aplicación es, por lo que no se puede comprobar la dirección y no se ha cerrado su sesión. Póngase en contacto con el desarrollador de la aplicación.",
        ],
        "fi": [
            "logout.confirm.title": "Kirjaudutaanko ulos?",
            "logout.confirm.body": "Haluatko kirjautua ulos? Jos et pyytänyt uloskirjautumista, sulje tämä ikkuna, niin pysyt kirjautuneena.",
            "logout.confirm.submit": "Kirjaudu ulos",
            "logout.redirect_unregistered": "Olet yhä kirjautuneena. Sovellus pyysi palauttamaan sinut osoitteeseen, jota ei ole rekisteröity sille, joten sinua ei kirjattu ulos. Ota yhteyttä sovelluksen kehittäjään.",
            "logout.redirect_unidentified": "Olet yhä kirjautuneena. Sovellus pyysi palauttamaan sinut osoitteeseen kertomatta, mikä sovellus se on, joten osoitetta ei voida tarkistaa eikä sinua kirjattu ulos. Ota yhteyttä sovelluksen kehittäjään.",
        ],
        "fr": [
            "logout.confirm.title": "Se déconnecter\u{00A0}?",
            "logout.confirm.body": "Voulez-vous vous déconnecter\u{00A0}? Si vous n'avez pas demandé à vous déconnecter, fermez cette fenêtre pour rester connecté.",
            "logout.confirm.submit": "Se déconnecter",
            "logout.redirect_unregistered": "Vous êtes toujours connecté. L'application a demandé à vous renvoyer vers une adresse qui n'est pas enregistrée pour elle, vous n'avez donc pas été déconnecté. Contactez le développeur de l'application.",
            "logout.redirect_unidentified": "Vous êtes toujours connecté. L'application a demandé à vous renvoyer vers une adresse sans indiquer de quelle application il s'agit\u{00A0}: l'adresse ne peut donc pas être vérifiée et vous n'avez pas été déconnecté. Contactez le développeur de l'application.",
        ],
        "hu": [
            "logout.confirm.title": "Kijelentkezik?",
            "logout.confirm.body": "Biztosan ki szeretne jelentkezni? Ha nem kérte a kijelentkezést, zárja be ezt az ablakot, és bejelentkezve marad.",
            "logout.confirm.submit": "Kijelentkezés",
            "logout.redirect_unregistered": "Továbbra is be van jelentkezve. Az alkalmazás olyan címre kérte visszairányítani, amely nincs hozzá regisztrálva, ezért nem jelentkeztettük ki. Forduljon az alkalmazás fejlesztőjéhez.",
            "logout.redirect_unidentified": "Továbbra is be van jelentkezve. Az alkalmazás egy címre kérte visszairányítani, de nem adta meg, melyik alkalmazás, ezért a cím nem ellenőrizhető, és nem jelentkeztettük ki. Forduljon az alkalmazás fejlesztőjéhez.",
        ],
        "it": [
            "logout.confirm.title": "Disconnettersi?",
            "logout.confirm.body": "Vuole disconnettersi? Se non ha chiesto di disconnettersi, chiuda questa finestra per restare connesso.",
            "logout.confirm.submit": "Disconnetti",
            "logout.redirect_unregistered": "È ancora connesso. L'app ha chiesto di riportarla a un indirizzo non registrato per l'app, quindi non è stato disconnesso. Contatti lo sviluppatore dell'app.",
            "logout.redirect_unidentified": "È ancora connesso. L'app ha chiesto di riportarla a un indirizzo senza indicare di quale app si tratti, quindi l'indirizzo non può essere verificato e non è stato disconnesso. Contatti lo sviluppatore dell'app.",
        ],
        "ja": [
            "logout.confirm.title": "サインアウトしますか？",
            "logout.confirm.body": "サインアウトしますか？サインアウトを求めていない場合は、このウィンドウを閉じてください。サインインしたままになります。",
            "logout.confirm.submit": "サインアウト",
            "logout.redirect_unregistered": "まだサインインしています。アプリが、このアプリ用に登録されていないアドレスへの移動を求めたため、サインアウトしませんでした。アプリの開発者にお問い合わせください。",
            "logout.redirect_unidentified": "まだサインインしています。アプリがどのアプリかを示さずにアドレスへの移動を求めたため、アドレスを確認できず、サインアウトしませんでした。アプリの開発者にお問い合わせください。",
        ],
        "ko": [
            "logout.confirm.title": "로그아웃하시겠습니까?",
            "logout.confirm.body": "로그아웃하시겠습니까? 로그아웃을 요청하지 않았다면 이 창을 닫으세요. 로그인 상태가 유지됩니다.",
            "logout.confirm.submit": "로그아웃",
            "logout.redirect_unregistered": "아직 로그인되어 있습니다. 앱이 등록되지 않은 주소로 돌아가도록 요청했기 때문에 로그아웃되지 않았습니다. 앱 개발자에게 문의하세요.",
            "logout.redirect_unidentified": "아직 로그인되어 있습니다. 앱이 어떤 앱인지 밝히지 않고 주소로 돌아가도록 요청했기 때문에 주소를 확인할 수 없어 로그아웃되지 않았습니다. 앱 개발자에게 문의하세요.",
        ],
        "nb": [
            "logout.confirm.title": "Logge av?",
            "logout.confirm.body": "Vil du logge av? Hvis du ikke ba om å logge av, lukker du dette vinduet for å forbli pålogget.",
            "logout.confirm.submit": "Logg av",
            "logout.redirect_unregistered": "Du er fortsatt pålogget. Appen ba om å sende deg tilbake til en adresse som ikke er registrert for den, så du ble ikke logget av. Kontakt utvikleren av appen.",
            "logout.redirect_unidentified": "Du er fortsatt pålogget. Appen ba om å sende deg tilbake til en adresse uten å oppgi hvilken app den er, så adressen kan ikke kontrolleres, og du ble ikke logget av. Kontakt utvikleren av appen.",
        ],
        "nl": [
            "logout.confirm.title": "Uitloggen?",
            "logout.confirm.body": "Wilt u uitloggen? Als u niet hebt gevraagd om uit te loggen, sluit dan dit venster om ingelogd te blijven.",
            "logout.confirm.submit": "Uitloggen",
            "logout.redirect_unregistered": "U bent nog steeds ingelogd. De app vroeg om u terug te sturen naar een adres dat niet voor de app is geregistreerd, dus u bent niet uitgelogd. Neem contact op met de ontwikkelaar van de app.",
            "logout.redirect_unidentified": "U bent nog steeds ingelogd. De app vroeg om u terug te sturen naar een adres zonder te vermelden welke app het is, dus het adres kan niet worden gecontroleerd en u bent niet uitgelogd. Neem contact op met de ontwikkelaar van de app.",
        ],
        "pt": [
            "logout.confirm.title": "Sair?",
            "logout.confirm.body": "Deseja sair? Se você não pediu para sair, feche esta janela para continuar conectado.",
            "logout.confirm.submit": "Sair",
            "logout.redirect_unregistered": "Você ainda está conectado. O aplicativo pediu para enviar você a um endereço que não está registrado para ele, por isso sua sessão não foi encerrada. Entre em contato com o desenvolvedor do aplicativo.",
            "logout.redirect_unidentified": "Você ainda está conectado. O aplicativo pediu para enviar você a um endereço sem informar qual aplicativo é, por isso o endereço não pode ser verificado e sua sessão não foi encerrada. Entre em contato com o desenvolvedor do aplicativo.",
        ],
        "ru": [
            "logout.confirm.title": "Выйти?",
            "logout.confirm.body": "Вы хотите выйти из системы? Если вы не запрашивали выход, закройте это окно, и вы останетесь в системе.",
            "logout.confirm.submit": "Выйти",
            "logout.redirect_unregistered": "Вы по-прежнему в системе. Приложение запросило возврат на адрес, который для него не зарегистрирован, поэтому выход не выполнен. Обратитесь к разработчику приложения.",
            "logout.redirect_unidentified": "Вы по-прежнему в системе. Приложение запросило возврат на адрес, не указав, какое это приложение, поэтому адрес нельзя проверить и выход не выполнен. Обратитесь к разработчику приложения.",
        ],
        "sk": [
            "logout.confirm.title": "Odhlásiť sa?",
            "logout.confirm.body": "Chcete sa odhlásiť? Ak ste o odhlásenie nežiadali, zatvorte toto okno a zostanete prihlásení.",
            "logout.confirm.submit": "Odhlásiť sa",
            "logout.redirect_unregistered": "Stále ste prihlásení. Aplikácia žiadala o návrat na adresu, ktorá pre ňu nie je zaregistrovaná, preto ste neboli odhlásení. Kontaktujte vývojára aplikácie.",
            "logout.redirect_unidentified": "Stále ste prihlásení. Aplikácia žiadala o návrat na adresu bez uvedenia, o ktorú aplikáciu ide, preto adresu nemožno overiť a neboli ste odhlásení. Kontaktujte vývojára aplikácie.",
        ],
        "sv": [
            "logout.confirm.title": "Logga ut?",
            "logout.confirm.body": "Vill du logga ut? Om du inte har bett om att logga ut stänger du det här fönstret för att förbli inloggad.",
            "logout.confirm.submit": "Logga ut",
            "logout.redirect_unregistered": "Du är fortfarande inloggad. Appen bad om att skicka dig till en adress som inte är registrerad för den, så du loggades inte ut. Kontakta appens utvecklare.",
            "logout.redirect_unidentified": "Du är fortfarande inloggad. Appen bad om att skicka dig till en adress utan att ange vilken app den är, så adressen kan inte kontrolleras och du loggades inte ut. Kontakta appens utvecklare.",
        ],
        "zh-Hans": [
            "logout.confirm.title": "要退出登录吗？",
            "logout.confirm.body": "您要退出登录吗？如果您没有要求退出登录，请关闭此窗口，您将保持登录状态。",
            "logout.confirm.submit": "退出登录",
            "logout.redirect_unregistered": "您仍处于登录状态。该应用要求将您返回到一个未为其注册的地址，因此未将您退出登录。请联系应用开发者。",
            "logout.redirect_unidentified": "您仍处于登录状态。该应用要求将您返回到某个地址，但未说明是哪个应用，因此无法检查该地址，也未将您退出登录。请联系应用开发者。",
        ],
        "zh-Hant": [
            "logout.confirm.title": "要登出嗎？",
            "logout.confirm.body": "您要登出嗎？如果您沒有要求登出，請關閉此視窗，您將保持登入狀態。",
            "logout.confirm.submit": "登出",
            "logout.redirect_unregistered": "您仍處於登入狀態。此應用程式要求將您返回至未為其註冊的網址，因此並未將您登出。請聯絡應用程式開發人員。",
            "logout.redirect_unidentified": "您仍處於登入狀態。此應用程式要求將您返回至某個網址，但未說明是哪個應用程式，因此無法檢查該網址，也並未將您登出。請聯絡應用程式開發人員。",
        ],
    ]
}

extension StringTables {
    /// The tables ``StringTableLocalizer`` serves by default: ``all`` with each locale's
    /// ``LogoutStrings`` and ``AccountPageStrings`` added (a key of the main tables wins, though
    /// none is shared).
    public static let served: [String: [String: String]] = [LogoutStrings.tables, AccountPageStrings.tables]
        .reduce(all) { served, feature in
            served.merging(feature.filter { all[$0.key] != nil }) { main, extra in
                main.merging(extra) { mainValue, _ in mainValue }
            }
        }
}
